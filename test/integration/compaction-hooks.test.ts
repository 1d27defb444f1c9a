/**
 * Other plugins see the guard's compactions through ADK's own
 * `beforeContextCompaction` / `afterContextCompaction` hooks, through a real
 * Runner and plugin manager.
 *
 * Guarantees:
 * - every compaction fires `before` then `after` on the invocation's plugin
 *   manager, trigger `Auto`, or `Manual` after `requestCompaction`; in `after`
 *   the compaction's record is already in the session state;
 * - a plugin that throws in these hooks breaks neither the turn nor the
 *   compaction (the guard logs it);
 * - the guard does not act on the hooks it fires itself.
 */
import {
  BasePlugin,
  ContextCompactionTrigger,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
  type InvocationContext,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, type CompactionRecord } from '../../src/index.js';
import { decodeCompactionRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { ScriptedLlm } from '../../src/testing/index.js';
import { CapturingLogger } from '../../src/testing/index.js';
import { fetchThenAnswer, fetchTool } from '../support/fault-harness.js';
import { proportionalCounter } from '../support/proportional-counter.js';
import { ScriptedSummarizerLlm } from '../../src/testing/index.js';

setLogLevel(LogLevel.ERROR);

const APP = 'guard-hooks';
const USER = 'user-h';

interface HookCall {
  readonly phase: 'before' | 'after';
  readonly trigger: ContextCompactionTrigger;
  readonly agent: string | undefined;
  /** Id of the agent's last compaction record in the session state when the hook ran. */
  readonly lastCompactionId: string | undefined;
}

/** A metrics-style plugin that only listens to ADK's compaction hooks. */
class CompactionProbe extends BasePlugin {
  readonly calls: HookCall[] = [];
  constructor(private readonly throws = false) {
    super(throws ? 'throwing_probe' : 'compaction_probe');
  }
  override async beforeContextCompaction(params: {
    invocationContext: InvocationContext;
    trigger: ContextCompactionTrigger;
  }): Promise<void> {
    this.record('before', params);
  }
  override async afterContextCompaction(params: {
    invocationContext: InvocationContext;
    trigger: ContextCompactionTrigger;
  }): Promise<void> {
    this.record('after', params);
  }
  private record(
    phase: HookCall['phase'],
    { invocationContext, trigger }: { invocationContext: InvocationContext; trigger: ContextCompactionTrigger },
  ): void {
    const agent = invocationContext.agent?.name;
    const last = agent
      ? decodeCompactionRecord(invocationContext.session.state[stateKeysFor(agent).lastCompaction])
      : undefined;
    this.calls.push({ phase, trigger, agent, lastCompactionId: last?.id });
    if (this.throws) throw new Error(`probe fails in ${phase}`);
  }
}

/** Summaries are what these tests follow, so masking is off unless a test turns it on. */
async function setUp(plugins: BasePlugin[], maskKeepRecent = 0) {
  const records: CompactionRecord[] = [];
  const logger = new CapturingLogger();
  const guard = new ContextGuard({
    maskKeepRecent,
    contextWindow: 6_000,
    summarizer: new ScriptedSummarizerLlm(),
    modelWindows: { 'scripted-summarizer': 32_000 },
    logger,
    // The one-line listener users write: its return value (push's count) is ignored.
    onCompaction: (record) => records.push(record),
  });
  const workerModel = new ScriptedLlm({
    model: 'scripted-worker',
    window: 6_000,
    countTokens: proportionalCounter(1.3),
    script: fetchThenAnswer(3_000),
  });
  const agent = new LlmAgent({ name: 'worker', model: workerModel, instruction: 'You work.', tools: [fetchTool()] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent, sessionService, plugins: [...plugins, guard] });
  const session = await sessionService.createSession({ appName: APP, userId: USER });
  const turn = async (text: string): Promise<string[]> => {
    const errors: string[] = [];
    for await (const event of runner.runAsync({
      userId: USER,
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text }] },
    })) {
      if (event.errorCode) errors.push(`${event.errorCode} ${event.errorMessage ?? ''}`);
    }
    return errors;
  };
  return { guard, records, logger, workerModel, sessionService, session, turn };
}

describe('ADK compaction hooks', () => {
  it('should fire before and after around every compaction, trigger Auto, with the record in state by after', async () => {
    const probe = new CompactionProbe();
    const world = await setUp([probe]);
    for (let turn = 1; turn <= 8; turn++) expect(await world.turn(`Turn ${turn}: fetch it.`)).toEqual([]);

    expect(world.records.length).toBeGreaterThan(0);
    expect(probe.calls.map((call) => call.phase)).toEqual(world.records.flatMap(() => ['before', 'after']));
    expect(probe.calls.every((call) => call.trigger === ContextCompactionTrigger.Auto && call.agent === 'worker')).toBe(
      true,
    );
    // `after` sees this compaction's record; `before` still sees the previous one.
    expect(probe.calls.filter((call) => call.phase === 'after').map((call) => call.lastCompactionId)).toEqual(
      world.records.map((record) => record.id),
    );
    expect(probe.calls.filter((call) => call.phase === 'before').map((call) => call.lastCompactionId)).toEqual([
      undefined,
      ...world.records.slice(0, -1).map((record) => record.id),
    ]);
    expect(world.workerModel.rejectedRequests).toEqual([]);
  });

  it('should fire before and after around a masking too (a compaction made without a model call)', async () => {
    const probe = new CompactionProbe();
    const world = await setUp([probe], 1);
    for (let turn = 1; turn <= 8; turn++) expect(await world.turn(`Turn ${turn}: fetch it.`)).toEqual([]);
    const stored = await world.sessionService.getSession({ appName: APP, userId: USER, sessionId: world.session.id });
    const usage = decodeUsageRecord(stored?.state[stateKeysFor('worker').usage]);
    expect(usage.maskings).toBeGreaterThan(0);
    // One before/after pair per call that masked, summarized or both.
    expect(probe.calls.filter((call) => call.phase === 'before').length).toBeGreaterThanOrEqual(
      Math.max(usage.maskings, world.records.length),
    );
    expect(probe.calls.filter((call) => call.phase === 'before').length).toBe(
      probe.calls.filter((call) => call.phase === 'after').length,
    );
    expect(world.workerModel.rejectedRequests).toEqual([]);
  });

  it('should fire trigger Manual for a compaction asked for with requestCompaction', async () => {
    const probe = new CompactionProbe();
    const world = await setUp([probe]);
    for (let turn = 1; turn <= 2; turn++) expect(await world.turn(`Turn ${turn}: fetch it.`)).toEqual([]);
    const before = world.records.length;
    const session = await world.sessionService.getSession({ appName: APP, userId: USER, sessionId: world.session.id });
    await world.guard.requestCompaction({
      sessionService: world.sessionService,
      session: session!,
      agentName: 'worker',
    });
    expect(await world.turn('Turn 3: fetch it.')).toEqual([]);

    expect(world.records.slice(before).map((record) => record.reason)).toContain('forced');
    const manual = probe.calls.filter((call) => call.trigger === ContextCompactionTrigger.Manual);
    expect(manual.map((call) => call.phase)).toEqual(['before', 'after']);
    // Later compactions are the guard's own decision again.
    for (let turn = 4; turn <= 9; turn++) expect(await world.turn(`Turn ${turn}: fetch it.`)).toEqual([]);
    expect(probe.calls.filter((call) => call.trigger === ContextCompactionTrigger.Manual)).toHaveLength(2);
    expect(probe.calls.length).toBe(world.records.length * 2);
  });

  it('should keep the turn and the compaction when another plugin throws in the hooks', async () => {
    const throwing = new CompactionProbe(true);
    const world = await setUp([throwing]);
    for (let turn = 1; turn <= 8; turn++) expect(await world.turn(`Turn ${turn}: fetch it.`)).toEqual([]);

    expect(world.records.length).toBeGreaterThan(0);
    expect(throwing.calls.length).toBe(world.records.length * 2);
    expect(world.workerModel.rejectedRequests).toEqual([]);
    expect(world.logger.atOrAbove('error').some((line) => line.message.includes('Compaction'))).toBe(true);
  });

  it("should not wait for itself, nor fire again, when a plugin's hook runs the same agent on the same session", async () => {
    // A hook that runs a turn of its own: without care, that turn waits for the one that fired the hook.
    class NestingPlugin extends BasePlugin {
      run: (() => Promise<string[]>) | undefined;
      readonly nestedErrors: string[] = [];
      nestedRuns = 0;
      constructor() {
        super('nesting_plugin');
      }
      override async afterContextCompaction(): Promise<void> {
        if (this.nestedRuns++ > 0 || !this.run) return;
        this.nestedErrors.push(...(await this.run()));
      }
    }
    const probe = new CompactionProbe();
    const nesting = new NestingPlugin();
    const world = await setUp([probe, nesting]);
    nesting.run = () => world.turn('Nested turn: fetch it.');
    for (let turn = 1; turn <= 8; turn++) expect(await world.turn(`Turn ${turn}: fetch it.`)).toEqual([]);

    expect(nesting.nestedRuns).toBeGreaterThan(0);
    expect(nesting.nestedErrors).toEqual([]);
    expect(world.workerModel.requests.some((request) => JSON.stringify(request.contents).includes('Nested turn'))).toBe(
      true,
    );
    // Hooks are paired, and the nested turn's own compactions (if any) fired none.
    expect(probe.calls.map((call) => call.phase)).toEqual(
      probe.calls.map((_, index) => (index % 2 === 0 ? 'before' : 'after')),
    );
    expect(probe.calls.length).toBeLessThanOrEqual(world.records.length * 2);
    expect(world.workerModel.rejectedRequests).toEqual([]);
  });

  it('should not act on the hooks it fires itself (its own hooks are ADK no-ops)', () => {
    const guard = new ContextGuard();
    /* eslint-disable @typescript-eslint/unbound-method -- compares the methods themselves; none is called */
    expect(guard.beforeContextCompaction).toBe(BasePlugin.prototype.beforeContextCompaction);
    expect(guard.afterContextCompaction).toBe(BasePlugin.prototype.afterContextCompaction);
    /* eslint-enable @typescript-eslint/unbound-method */
  });
});
