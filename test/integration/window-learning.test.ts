/**
 * A model the registry does not know, with no `contextWindow`: the guard
 * assumes the default window until the provider rejects a request, then reads
 * the maximum the rejection states and uses it as that model's window, in the
 * agent's usage state (survives a restart) and for every session of the same
 * user the guard instance serves (another user's sessions wait for a second
 * user's statement: learned-window-users.test.ts). At most one call per model
 * name and user is rejected.
 */
import { InMemorySessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, formatContextMeter, type AgentContextStatus } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { ScriptedLlm, ratioTokenCounter, ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript, startSession, storedSession } from '../support/agent-harness.js';
import { CapturingLogger } from '../../src/testing/index.js';

const REAL_WINDOW = 8_000;
const keys = stateKeysFor('worker');

function strictModel(): ScriptedLlm {
  // 'scripted-model' is in no catalogue and matches no family rule: the guard assumes its default window.
  return new ScriptedLlm({
    window: REAL_WINDOW,
    countTokens: ratioTokenCounter(2),
    script: toolThenAnswerScript(1_500),
  });
}

/** Runs `turns` turns of `model` under `guard` on a new session; returns the guard's status of that session. */
async function statusAfterTurns(guard: ContextGuard, model: ScriptedLlm, turns: number): Promise<AgentContextStatus> {
  const harness = createHarness({ model, plugins: [guard] });
  return guard.status(await harness.sessionAfterTurns(turns), 'worker');
}

describe('a window learned from the provider', () => {
  it('should be rejected once on an unknown model, then adopt the stated maximum for the session, other sessions and a restart', async () => {
    const logger = new CapturingLogger();
    const model = strictModel();
    const sessionService = new InMemorySessionService();
    const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger });
    const harness = createHarness({
      model,
      sessionService,
      plugins: [guard],
    });
    const first = await startSession(sessionService);
    await harness.runTurns(first.id, 30);
    expect(model.rejectedRequests).toHaveLength(1);

    const stored = await storedSession(sessionService, first.id);
    const usage = decodeUsageRecord(stored.state[keys.usage]);
    expect({ window: usage.window, source: usage.windowSource, learned: usage.learnedWindow }).toEqual({
      window: REAL_WINDOW,
      source: 'learned',
      learned: REAL_WINDOW,
    });
    const status = guard.status(stored, 'worker');
    expect(status.windowSource).toBe('learned');
    expect(formatContextMeter(status)).toMatch(/\/8K learned /);

    // The warning says what the guard does, not how to silence it.
    const unknown = logger.matching("unknown model 'scripted-model'");
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.message).not.toMatch(/silence/);
    expect(unknown[0]?.message).toMatch(/contextWindow/);

    // Another session of the same user on the same guard starts from the learned window: no second rejection.
    const second = await startSession(sessionService);
    await harness.runTurns(second.id, 15);
    expect(model.rejectedRequests).toHaveLength(1);

    // A restarted process (a new guard) reads the learned window from the session's state.
    const restartedModel = strictModel();
    const restarted = createHarness({
      model: restartedModel,
      sessionService,
      plugins: [new ContextGuard({ summarizer: new ScriptedSummarizer(), logger: new CapturingLogger() })],
    });
    await restarted.runTurns(first.id, 45, { from: 31 });
    expect(restartedModel.rejectedRequests).toHaveLength(0);
  });

  it('should show the stated maximum in the meter right after the rejected call', async () => {
    const model = strictModel();
    const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger: new CapturingLogger() });
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.startSession();
    for (let turn = 1; turn <= 30 && model.rejectedRequests.length === 0; turn++)
      await harness.runTurns(session.id, turn, { from: turn });
    expect(model.rejectedRequests).toHaveLength(1);
    const meter = formatContextMeter(guard.status(await harness.storedSession(session.id), 'worker'));
    // The window the retried call was held to; turns left, if any, count against its threshold (6.4K, turns of
    // ~1.9K: a handful, not the hundreds of the default window), after the retry's masking or compaction.
    expect(meter).toMatch(/^\d+(\.\d)?K\/8K learned \(\d+(\.\d)?%\)( ~[0-3] turns? left)?(, 1 compaction)?$/);
  });

  it('should let the provider win over a larger contextWindow option, and say so once', async () => {
    const logger = new CapturingLogger();
    const model = strictModel();
    const guard = new ContextGuard({ contextWindow: 32_000, summarizer: new ScriptedSummarizer(), logger });
    const status = await statusAfterTurns(guard, model, 30);
    expect(model.rejectedRequests).toHaveLength(1);
    expect({ window: status.window, source: status.windowSource }).toEqual({ window: REAL_WINDOW, source: 'learned' });
    expect(logger.matching(/contextWindow 32000 .* larger than the maximum/)).toHaveLength(1);
  });

  it('should keep an explicit contextWindow smaller than what the provider accepts, and report it as the option', async () => {
    const model = strictModel();
    const guard = new ContextGuard({ contextWindow: 6_000, summarizer: new ScriptedSummarizer() });
    const status = await statusAfterTurns(guard, model, 10);
    expect({ window: status.window, source: status.windowSource, rejected: model.rejectedRequests.length }).toEqual({
      window: 6_000,
      source: 'option',
      rejected: 0,
    });
  });
});
