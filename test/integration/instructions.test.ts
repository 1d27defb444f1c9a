/**
 * The AGENTS.md hierarchy through a real Runner: what system instruction the
 * strict ScriptedLlm actually received, with the plugin and with the
 * instruction provider.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySessionService, LlmAgent, Runner, type BasePlugin, type InstructionProvider } from '@google/adk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentsMdInstruction } from '../../src/instructions/agents-md-instruction.js';
import { AgentsMdInstructionsPlugin } from '../../src/instructions/agents-md-plugin.js';
import { ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { APP_NAME, USER_ID, runTurn, startSession } from '../support/agent-harness.js';

let root: string;
let folders: { homeDir: string; cwd: string };

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agents-md-it-'));
  folders = { homeDir: join(root, 'home'), cwd: join(root, 'repo/services/api') };
  await mkdir(folders.homeDir, { recursive: true });
  await mkdir(folders.cwd, { recursive: true });
  await mkdir(join(root, 'repo/.git'));
  // Braces on purpose: ADK would read them as session-state placeholders in a string instruction.
  await writeFile(
    join(folders.homeDir, 'AGENTS.md'),
    'HOME: answer in British English. Config looks like {"indent": 2}.',
  );
  await writeFile(
    join(root, 'repo/AGENTS.md'),
    'PROJECT: run `make test` before answering; never touch {generated} files.',
  );
  await writeFile(join(folders.cwd, 'AGENTS.md'), 'CWD: this service speaks gRPC.');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function setup(options: { instruction: string | InstructionProvider; plugins?: BasePlugin[] }) {
  const model = new ScriptedLlm({
    window: 1_000_000,
    countTokens: ratioTokenCounter(1),
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `answer ${index}` }] } }),
  });
  const agent = new LlmAgent({ name: 'worker', model, instruction: options.instruction });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: options.plugins ?? [] });
  return { model, runner, sessionService };
}

/** Positions of `markers` in `text`, in the order given; -1 for a missing one. */
function positions(text: string, markers: string[]): number[] {
  return markers.map((marker) => text.indexOf(marker));
}

describe('AGENTS.md instructions through a real Runner', () => {
  it('should prepend the merged files, in order, before the agent instruction on every request', async () => {
    const plugin = new AgentsMdInstructionsPlugin(folders);
    const { model, runner, sessionService } = setup({
      instruction: 'AGENT: you are the worker for {user_name}.',
      plugins: [plugin],
    });
    const session = await sessionService.createSession({
      appName: APP_NAME,
      userId: USER_ID,
      state: { user_name: 'Ada' },
    });
    await runTurn(runner, session.id, 'First question.');
    await runTurn(runner, session.id, 'Second question.');

    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      const system = request.systemInstruction ?? '';
      const [home, project, cwd, agent] = positions(system, ['HOME:', 'PROJECT:', 'CWD:', 'AGENT:']);
      expect(home).toBeGreaterThanOrEqual(0);
      expect(project).toBeGreaterThan(home ?? -1);
      expect(cwd).toBeGreaterThan(project ?? -1);
      expect(agent).toBeGreaterThan(cwd ?? -1);
      // The agent's own instruction is still templated; the AGENTS.md braces are not.
      expect(system).toContain('AGENT: you are the worker for Ada.');
      expect(system).toContain('Config looks like {"indent": 2}.');
      expect(system).toContain('never touch {generated} files.');
      expect(system.split('HOME:')).toHaveLength(2);
      expect(system).toContain(`(user home)\nHOME:`);
      expect(system).toContain(`# Instructions from ${join(root, 'repo/AGENTS.md')} (project root)`);
    }
    expect((await plugin.instructions()).sources.map((source) => source.status)).toEqual([
      'loaded',
      'loaded',
      'loaded',
    ]);
  });

  it('should serve the merged files as the agent instruction, verbatim', async () => {
    const { model, runner, sessionService } = setup({ instruction: agentsMdInstruction(folders) });
    const session = await startSession(sessionService);
    await runTurn(runner, session.id, 'Question.');

    const system = model.requests[0]?.systemInstruction ?? '';
    const [home, project, cwd] = positions(system, ['HOME:', 'PROJECT:', 'CWD:']);
    expect(home).toBeGreaterThanOrEqual(0);
    expect(project).toBeGreaterThan(home ?? -1);
    expect(cwd).toBeGreaterThan(project ?? -1);
    expect(system).toContain('never touch {generated} files.');
  });
});
