import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Context, createSession, InvocationContext, LlmAgent, PluginManager, type LlmRequest } from '@google/adk';
import type { ContentUnion } from '@google/genai';
import { describe, expect, it, vi } from 'vitest';
import { useTempFolder } from '../../test/support/temp-folder.js';
import { CapturingLogger, ratioTokenCounter, ScriptedLlm } from '../testing/index.js';
import { AgentsMdInstructionsPlugin } from './agents-md-plugin.js';
import { instructionHeader } from './load-instructions.js';

const folder = useTempFolder('agents-md-plugin-', { 'AGENTS.md': 'Use tabs.' });

function callbackContext(): Context {
  const model = new ScriptedLlm({
    window: 1_000_000,
    countTokens: ratioTokenCounter(1),
    script: () => ({ content: { role: 'model', parts: [{ text: 'ok' }] } }),
  });
  const agent = new LlmAgent({ name: 'worker', model });
  const session = createSession({ id: 'session-1', appName: 'unit', userId: 'user-1' });
  return new Context({
    invocationContext: new InvocationContext({
      invocationId: 'invocation-1',
      session,
      agent,
      pluginManager: new PluginManager(),
    }),
  });
}

function request(systemInstruction?: ContentUnion): LlmRequest {
  return {
    contents: [],
    liveConnectConfig: {},
    toolsDict: {},
    ...(systemInstruction === undefined ? {} : { config: { systemInstruction } }),
  };
}

const header = () => instructionHeader('cwd', join(folder(), 'AGENTS.md'));
const pluginOptions = () => ({ homeDir: join(folder(), 'no-home'), cwd: folder(), projectMarkers: [] });

describe('AgentsMdInstructionsPlugin', () => {
  describe('construction', () => {
    it('should use the snake_case default name, or the given one', () => {
      expect(new AgentsMdInstructionsPlugin().name).toBe('agents_md_instructions');
      expect(new AgentsMdInstructionsPlugin({ name: 'house_rules' }).name).toBe('house_rules');
    });
  });

  describe('beforeModelCallback', () => {
    it('should prepend the instructions to the string ADK built and continue', async () => {
      const plugin = new AgentsMdInstructionsPlugin(pluginOptions());
      const llmRequest = request('You are a worker.');
      expect(await plugin.beforeModelCallback({ callbackContext: callbackContext(), llmRequest })).toBeUndefined();
      expect(llmRequest.config?.systemInstruction).toBe(`${header()}\nUse tabs.\n\nYou are a worker.`);
    });

    it('should create the config when the request has none', async () => {
      const plugin = new AgentsMdInstructionsPlugin(pluginOptions());
      const llmRequest = request();
      await plugin.beforeModelCallback({ callbackContext: callbackContext(), llmRequest });
      expect(llmRequest.config?.systemInstruction).toBe(`${header()}\nUse tabs.`);
    });

    it('should leave the request alone when no file exists', async () => {
      await rm(join(folder(), 'AGENTS.md'));
      const plugin = new AgentsMdInstructionsPlugin(pluginOptions());
      const llmRequest = request('You are a worker.');
      await plugin.beforeModelCallback({ callbackContext: callbackContext(), llmRequest });
      expect(llmRequest.config?.systemInstruction).toBe('You are a worker.');
    });

    it('should keep the first load until reload()', async () => {
      const plugin = new AgentsMdInstructionsPlugin(pluginOptions());
      await plugin.beforeModelCallback({ callbackContext: callbackContext(), llmRequest: request() });
      await writeFile(join(folder(), 'AGENTS.md'), 'Use spaces.');
      const stale = request();
      await plugin.beforeModelCallback({ callbackContext: callbackContext(), llmRequest: stale });
      expect(stale.config?.systemInstruction).toContain('Use tabs.');
      await plugin.reload();
      const fresh = request();
      await plugin.beforeModelCallback({ callbackContext: callbackContext(), llmRequest: fresh });
      expect(fresh.config?.systemInstruction).toContain('Use spaces.');
    });
  });

  describe('reporting', () => {
    it('should warn once per load about what the limit cut, and pass the load to onLoad', async () => {
      await writeFile(join(folder(), 'AGENTS.md'), 'x'.repeat(5_000));
      const logger = new CapturingLogger();
      const onLoad = vi.fn();
      const plugin = new AgentsMdInstructionsPlugin({ ...pluginOptions(), maxBytes: 1_024, logger, onLoad });
      await plugin.beforeModelCallback({ callbackContext: callbackContext(), llmRequest: request() });
      await plugin.beforeModelCallback({ callbackContext: callbackContext(), llmRequest: request() });
      expect(logger.atOrAbove('warn')).toHaveLength(1);
      expect(logger.atOrAbove('warn')[0]?.message).toMatch(
        new RegExp(`cut: ${join(folder(), 'AGENTS.md')} \\(cwd, \\d+ bytes dropped\\)`),
      );
      expect(onLoad).toHaveBeenCalledTimes(1);
      expect((await plugin.instructions()).bytes).toBeLessThanOrEqual(1_024);
    });
  });
});
