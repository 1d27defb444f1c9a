import { Context, createSession, FunctionTool, InvocationContext, LlmAgent, PluginManager } from '@google/adk';
import { describe, expect, it, vi } from 'vitest';
import { isContextGuardConfigError } from '../../errors.js';
import { CapturingLogger, ratioTokenCounter, ScriptedLlm } from '../../testing/index.js';
import type { ToolTruncationRecord } from '../../truncation/truncate-tool-output.js';
import {
  asPluginAfterToolCallback,
  createToolOutputTruncator,
  type AgentAfterToolParams,
} from './tool-output-callback.js';

/** A real tool context for `agentName`, as ADK builds it for a tool call. */
function toolContext(agentName = 'worker'): Context {
  const model = new ScriptedLlm({
    window: 1_000_000,
    countTokens: ratioTokenCounter(1),
    script: () => ({ content: { role: 'model', parts: [{ text: 'ok' }] } }),
  });
  const agent = new LlmAgent({ name: agentName, model });
  const session = createSession({ id: 'session-1', appName: 'unit', userId: 'user-1' });
  const invocationContext = new InvocationContext({
    invocationId: 'invocation-1',
    session,
    agent,
    pluginManager: new PluginManager(),
  });
  return new Context({ invocationContext, functionCallId: 'call-1' });
}

function tool(name = 'fetch_logs'): FunctionTool {
  return new FunctionTool({ name, description: 'test tool', execute: () => 'unused' });
}

function params(response: unknown, overrides: Partial<AgentAfterToolParams> = {}): AgentAfterToolParams {
  // ADK hands the tool's raw return value to the callback; its type says record, its value may be anything.
  return {
    tool: tool(),
    args: {},
    context: toolContext(),
    response: response as Record<string, unknown>,
    ...overrides,
  };
}

const bigText = Array.from({ length: 1_000 }, (_, index) => `log line ${index + 1}`).join('\n');

describe('createToolOutputTruncator', () => {
  describe('options', () => {
    it('should throw a ContextGuardConfigError for invalid static options', () => {
      let caught: unknown;
      try {
        createToolOutputTruncator({ maxBytes: 10 });
      } catch (error) {
        caught = error;
      }
      expect(isContextGuardConfigError(caught) && caught.option).toBe('toolOutputTruncation.maxBytes');
    });

    it('should leave results alone for an agent whose per-agent options are invalid', () => {
      const truncate = createToolOutputTruncator((agentName) => (agentName === 'worker' ? { maxBytes: 1 } : undefined));
      expect(truncate(params({ result: bigText }))).toBeUndefined();
      expect(truncate(params({ result: bigText }, { context: toolContext('other') }))).toBeDefined();
    });

    it('should apply per-agent and per-tool options', () => {
      const truncate = createToolOutputTruncator((agentName) =>
        agentName === 'quiet' ? false : { tools: { raw_dump: false } },
      );
      expect(truncate(params({ result: bigText }, { context: toolContext('quiet') }))).toBeUndefined();
      expect(truncate(params({ result: bigText }, { tool: tool('raw_dump') }))).toBeUndefined();
      expect(truncate(params({ result: bigText }))).toBeDefined();
    });
  });

  describe('result shapes', () => {
    it('should wrap a raw string result as { result } the way ADK does', () => {
      const truncated = createToolOutputTruncator()(params(bigText));
      expect(Object.keys(truncated ?? {})).toEqual(['result']);
      expect(String(truncated?.['result'])).toContain('[... omitted 744 of 1000 lines ...]');
    });

    it('should wrap a raw array result as { results }', () => {
      const items = Array.from({ length: 5_000 }, (_, index) => ({ id: index }));
      const truncated = createToolOutputTruncator()(params(items));
      expect(Object.keys(truncated ?? {})).toEqual(['results']);
      expect((truncated?.['results'] as unknown[]).length).toBeLessThan(5_000);
    });

    it('should return undefined for a missing result (a failed or long-running tool) and a small one', () => {
      const truncate = createToolOutputTruncator();
      expect(truncate(params(null))).toBeUndefined();
      expect(truncate(params(undefined))).toBeUndefined();
      expect(truncate(params({ result: 'short' }))).toBeUndefined();
      expect(truncate(params(42))).toBeUndefined();
    });
  });

  describe('reporting', () => {
    it('should report each cut with the tool context', () => {
      const records: Array<{ record: ToolTruncationRecord; agentName: string; callId: string | undefined }> = [];
      const truncate = createToolOutputTruncator(undefined, (record, context) =>
        records.push({ record, agentName: context.agentName, callId: context.functionCallId }),
      );
      truncate(params({ result: bigText }));
      truncate(params({ result: 'short' }));
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        agentName: 'worker',
        callId: 'call-1',
        record: { tool: 'fetch_logs', originalLines: 1_000, keptLines: 257 },
      });
    });

    it('should keep the cut when the listener throws', () => {
      const listener = vi.fn(() => {
        throw new Error('listener down');
      });
      const truncated = createToolOutputTruncator(undefined, listener)(params({ result: bigText }));
      expect(listener).toHaveBeenCalledTimes(1);
      expect(String(truncated?.['result'])).toContain('[... omitted');
    });

    it("should log to the logger it is given, not to ADK's (the twentieth outside trial)", () => {
      const logger = new CapturingLogger();
      const failing = () => {
        throw new Error('listener down');
      };
      createToolOutputTruncator(undefined, failing, logger)(params({ result: bigText }));
      expect(logger.matching('onTruncation listener failed').filter((line) => line.level === 'error')).toHaveLength(1);
    });
  });

  describe('plugin shape', () => {
    it('should take the plugin hook parameters and give the same result', async () => {
      const truncator = createToolOutputTruncator();
      const pluginHook = asPluginAfterToolCallback(truncator);
      const context = toolContext();
      const fromPlugin = await pluginHook({
        tool: tool(),
        toolArgs: {},
        toolContext: context,
        result: { result: bigText },
      });
      expect(fromPlugin).toEqual(truncator({ tool: tool(), args: {}, context, response: { result: bigText } }));
      expect(fromPlugin).toBeDefined();
    });
  });
});
