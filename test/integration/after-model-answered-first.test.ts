/**
 * A plugin registered before the guard that answers `afterModelCallback` (a moderation rewrite): ADK 2.0.0 stops at
 * the first plugin that returns a value, so the guard's after-model callback never runs. A summary prepared in the
 * background from the agent's own request waits for its call's return; before, it waited the whole two minutes, the
 * turn at the threshold with it, and a script exited mid-turn (the twentieth outside trial).
 */
import {
  BasePlugin,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import {
  CapturingLogger,
  logText,
  ratioTokenCounter,
  scriptedSummaryText,
  ScriptedLlm,
  type ModelScript,
} from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';

class ModerationPlugin extends BasePlugin {
  constructor() {
    super('moderation');
  }

  override async afterModelCallback(params: { llmResponse: LlmResponse }): Promise<LlmResponse | undefined> {
    return { content: params.llmResponse.content };
  }
}

/** Each turn: one `fetch_logs` of 4-13 KB, then an answer; a summary request (the agent's own model) is answered too. */
const script: ModelScript = ({ request, index }) => {
  const last: Content | undefined = request.contents.at(-1);
  // A summary request: the agent's request with tool calls switched off, or the guard's own prompt.
  const summary =
    String(request.config?.toolConfig?.functionCallingConfig?.mode) === 'NONE' ||
    !JSON.stringify(request.config?.systemInstruction ?? '').includes('You read logs.');
  if (summary)
    return {
      content: { role: 'model', parts: [{ text: scriptedSummaryText(JSON.stringify(request.contents), 400) }] },
    };
  return last?.parts?.some((part) => part.functionResponse)
    ? { content: { role: 'model', parts: [{ text: `ok ${index}` }] } }
    : { content: { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: { n: index } } }] } };
};

function newGuard() {
  const logger = new CapturingLogger();
  return { guard: new ContextGuard({ contextWindow: 16_000, logger }), logger };
}

async function run(order: 'moderation first' | 'guard first', { guard, logger } = newGuard(), appName = APP_NAME) {
  const model = new ScriptedLlm({ window: 16_000, countTokens: ratioTokenCounter(1), script });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You read logs.',
    tools: [
      new FunctionTool({
        name: 'fetch_logs',
        description: 'Reads logs.',
        parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER' } } } as never,
        execute: (input: unknown) => ({ logs: logText(4_000 + (((input as { n: number }).n * 3_001) % 9_000), 2) }),
      }),
    ],
  });
  const sessionService = new InMemorySessionService();
  const plugins = order === 'moderation first' ? [new ModerationPlugin(), guard] : [guard, new ModerationPlugin()];
  const runner = new Runner({ appName, agent, sessionService, plugins });
  const session = await sessionService.createSession({ appName, userId: 'alice' });
  const slowest = { ms: 0, turn: -1 };
  for (let turn = 0; turn < 30; turn++) {
    const started = Date.now();
    for await (const _ of runner.runAsync({
      userId: 'alice',
      sessionId: session.id,
      newMessage: userMessage(`Turn ${turn}`),
    }));
    if (Date.now() - started > slowest.ms) Object.assign(slowest, { ms: Date.now() - started, turn });
  }
  const stored = await sessionService.getSession({ appName, userId: 'alice', sessionId: session.id });
  return { status: guard.status(stored, 'worker'), slowest, warned: logger.matching(/no model response has reached/) };
}

describe('a plugin that answers afterModelCallback before the guard', () => {
  it('should not hold a turn waiting for a response the guard never sees, and say once why it cannot calibrate', async () => {
    const first = await run('moderation first');
    // The guard compacted (a summary prepared in the background), and no turn waited for the two minutes.
    expect(first.status.compactions).toBeGreaterThan(0);
    expect(first.slowest.ms).toBeLessThan(20_000);
    expect(first.warned).toHaveLength(1);
    // Registered first, the guard sees every response: calibrated, and nothing to warn about.
    const after = await run('guard first');
    expect(after.warned).toEqual([]);
    expect(after.status.calibrated).toBe(true);
  }, 120_000);

  it('should tell two apps with an agent of the same name apart', async () => {
    const shared = newGuard();
    // One guard in one process: another app's agent 'worker' sees every response, this app's none.
    await run('guard first', shared, 'other-app');
    await run('moderation first', shared);
    expect(shared.logger.matching(/no model response has reached/)).toHaveLength(1);
  }, 120_000);

  it("should not take many sessions' first calls in flight at once for responses that never reach it", async () => {
    /** A provider that answers after a while, as a real one does: twelve sessions' first calls are all in flight. */
    class SlowLlm extends ScriptedLlm {
      override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
        await new Promise((resolve) => setTimeout(resolve, 50));
        yield* super.generateContentAsync(request);
      }
    }
    const model = new SlowLlm({
      window: 16_000,
      countTokens: ratioTokenCounter(1),
      script: () => ({ content: { role: 'model', parts: [{ text: 'ok' }] } }),
    });
    const { guard, logger } = newGuard();
    const agent = new LlmAgent({ name: 'worker', model, instruction: 'You answer.' });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    await Promise.all(
      Array.from({ length: 12 }, async (_, user) => {
        const session = await sessionService.createSession({ appName: APP_NAME, userId: `u${user}` });
        for await (const _ of runner.runAsync({
          userId: `u${user}`,
          sessionId: session.id,
          newMessage: userMessage('Hi'),
        }));
      }),
    );
    expect(model.requests).toHaveLength(12);
    expect(logger.matching(/no model response has reached/)).toEqual([]);
  });
});
