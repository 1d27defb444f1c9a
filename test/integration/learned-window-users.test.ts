/**
 * A maximum stated in one user's session holds for that user's sessions, and for every session of the
 * process only once a session of another user (app + user) is rejected with the same maximum
 * (src/usage/window-statements.ts). Before, the first statement became the window of the model for
 * every tenant of the process: the statement is read from the error's text, which a proxy may fill
 * with what a user wrote, so one user's content made every other user's sessions compact early. One
 * Runner, one guard, one model; the model states a small maximum only for the users the test names.
 */
import { InMemorySessionService, LlmAgent, Runner, type Event } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, type AgentContextStatus } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import {
  CapturingLogger,
  promptTooLongError,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
  type ScriptCall,
} from '../../src/testing/index.js';
import { APP_NAME, fetchLogsTool, toolThenAnswerScript, userMessage } from '../support/agent-harness.js';
import { logsWorkerModel, separateSummarizerGuard } from '../support/separate-summarizer.js';

/** The maximum the model states for the users it rejects. */
const STATED = 4_000;
const REGISTRY_WINDOW = 1_048_576;

/** Whether a request is one of `users`' sessions: every user turn names its user. */
function fromUsers(call: ScriptCall, users: ReadonlySet<string>): boolean {
  const text = JSON.stringify(call.request.contents ?? []);
  return [...users].some((user) => text.includes(`(${user})`));
}

/** One guard, one model (gemini-2.5-flash: 1,048,576 tokens in the registry) that states STATED for `small` users' requests over it. */
function world(small: ReadonlySet<string>) {
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger });
  const rejected: string[] = [];
  const model = new ScriptedLlm({
    model: 'gemini-2.5-flash',
    window: REGISTRY_WINDOW,
    countTokens: ratioTokenCounter(2),
    script: toolThenAnswerScript(1_500),
    fail: (call) => {
      if (call.promptTokens <= STATED || !fromUsers(call, small)) return undefined;
      rejected.push(JSON.stringify(call.request.contents).match(/\((\w+)\)/)?.[1] ?? '');
      return promptTooLongError(call.promptTokens, STATED);
    },
  });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse logs.', tools: [fetchLogsTool()] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  // Another app (tenant) this process serves with the same guard, model and session service.
  const otherApp = {
    appName: 'other-app',
    guard,
    sessionService,
    runner: new Runner({ appName: 'other-app', agent, sessionService, plugins: [guard] }),
  };
  return { logger, guard, model, rejected, sessionService, runner, otherApp };
}

/** Runs `turns` turns of `userId` on a new session; returns its status and the error codes the user saw. */
async function userTurns(
  w: {
    readonly sessionService: InMemorySessionService;
    readonly runner: Runner;
    readonly guard: ContextGuard;
    readonly appName?: string;
  },
  userId: string,
  turns: number,
  resumed?: { readonly sessionId: string; readonly from: number },
): Promise<{ status: AgentContextStatus; errors: string[]; sessionId: string }> {
  const appName = w.appName ?? APP_NAME;
  const session = resumed ? { id: resumed.sessionId } : await w.sessionService.createSession({ appName, userId });
  const events: Event[] = [];
  for (let turn = resumed?.from ?? 1; turn <= turns; turn++) {
    const newMessage = userMessage(`Turn ${turn} (${userId}): check the logs.`);
    for await (const event of w.runner.runAsync({ userId, sessionId: session.id, newMessage })) events.push(event);
  }
  const stored = await w.sessionService.getSession({ appName, userId, sessionId: session.id });
  return {
    status: w.guard.status(stored, 'worker'),
    errors: events.flatMap((event) => (event.errorCode ? [event.errorCode] : [])),
    sessionId: session.id,
  };
}

const windowOf = (status: AgentContextStatus) => ({ window: status.window, source: status.windowSource });

describe("a maximum stated in one user's session", () => {
  it("should not reach another user's requests until a session of a second user states it too", async () => {
    const w = world(new Set(['alice', 'carol']));

    // Alice's session is rejected, retried inside the call, and learns at once.
    const alice = await userTurns(w, 'alice', 12);
    expect(w.rejected).toEqual(['alice']);
    expect(alice.errors).toEqual([]);
    expect(windowOf(alice.status)).toEqual({ window: STATED, source: 'learned' });

    // Bob, on the same process and model, is still measured against the registry's window.
    const bob = await userTurns(w, 'bob', 3);
    expect(windowOf(bob.status)).toEqual({ window: REGISTRY_WINDOW, source: 'registry' });
    expect(bob.status.compactions).toBe(0);

    // Alice's next session starts from what her own session learned: no second rejection.
    const aliceAgain = await userTurns(w, 'alice', 1);
    expect(windowOf(aliceAgain.status)).toEqual({ window: STATED, source: 'learned' });
    expect(w.rejected).toEqual(['alice']);

    // Carol, another user, is rejected with the same maximum: it is confirmed, and holds for every session of the app.
    const carol = await userTurns(w, 'carol', 12);
    expect(w.rejected).toEqual(['alice', 'carol']);
    expect(carol.errors).toEqual([]);
    expect(w.logger.matching(/for every session of this app \(another user's rejection stated it too\)/)).toHaveLength(
      1,
    );
    const dave = await userTurns(w, 'dave', 1);
    expect(windowOf(dave.status)).toEqual({ window: STATED, source: 'learned' });

    // Another tenant on the same model is not held to what this tenant's provider account states.
    const erin = await userTurns(w.otherApp, 'erin', 3);
    expect(windowOf(erin.status)).toEqual({ window: REGISTRY_WINDOW, source: 'registry' });
    expect(erin.status.compactions).toBe(0);
  }, 60_000);

  it('should not be confirmed by another session of the same user', async () => {
    const w = world(new Set(['alice']));
    await userTurns(w, 'alice', 12);
    await userTurns(w, 'alice', 12);
    const bob = await userTurns(w, 'bob', 1);
    expect(windowOf(bob.status)).toEqual({ window: REGISTRY_WINDOW, source: 'registry' });
  }, 60_000);
});

describe("a maximum a separate summarizer model stated in one user's session", () => {
  /** The summarizer model states 4,000 over requests of `small` users' sessions, accepting any size otherwise. */
  function summarizerWorld(small: ReadonlySet<string>, sessionService = new InMemorySessionService()) {
    const summarizer = new ScriptedLlm({
      model: 'scripted-summarizer',
      window: REGISTRY_WINDOW,
      countTokens: ratioTokenCounter(2),
      script: () => ({ content: { role: 'model', parts: [{ text: '## Current state\nThe logs were checked.' }] } }),
      fail: (call) =>
        call.promptTokens > 4_000 && fromUsers(call, small) ? promptTooLongError(call.promptTokens, 4_000) : undefined,
    });
    const model = logsWorkerModel();
    const guard = separateSummarizerGuard(summarizer);
    const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse logs.', tools: [fetchLogsTool()] });
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    return { summarizer, sessionService, runner, guard };
  }

  it("should bound that session's later summary requests, not another user's", async () => {
    const w = summarizerWorld(new Set(['alice']));
    const sizes = () => w.summarizer.requests.map((request) => request.promptTokens);

    const { sessionId } = await userTurns(w, 'alice', 20);
    const alice = sizes();
    // Rejected once; her later summary requests were made to fit what it stated, from her session's state.
    expect(w.summarizer.requests.filter((request) => request.promptTokens > 4_000)).toHaveLength(1);
    expect(alice.length).toBeGreaterThan(2);

    const bob = await userTurns(w, 'bob', 20);
    const bobSizes = sizes().slice(alice.length);
    // Bob's summary requests are held to the summarizer's assumed window, not to what Alice's session was told.
    expect(bobSizes.length).toBeGreaterThan(0);
    expect(Math.max(...bobSizes)).toBeGreaterThan(4_000);
    const usage = decodeUsageRecord((await stateOf(w, 'alice'))[stateKeysFor('worker').usage]);
    expect({ window: usage.summarizerWindow, model: usage.summarizerWindowModel }).toEqual({
      window: 4_000,
      model: 'scripted-summarizer',
    });
    expect(bob.errors).toEqual([]);

    // A replica (another process: a new guard on the same sessions) reads it from Alice's session's state.
    const replica = summarizerWorld(new Set(['alice']), w.sessionService);
    await userTurns(replica, 'alice', 30, { sessionId, from: 21 });
    const replicaSizes = replica.summarizer.requests.map((request) => request.promptTokens);
    expect(replicaSizes.length).toBeGreaterThan(0);
    expect(Math.max(...replicaSizes)).toBeLessThanOrEqual(4_000);
  }, 90_000);
});

/** The state of `userId`'s only session. */
async function stateOf(
  w: { sessionService: InMemorySessionService },
  userId: string,
): Promise<Readonly<Record<string, unknown>>> {
  const [listed] = (await w.sessionService.listSessions({ appName: APP_NAME, userId })).sessions;
  const session = await w.sessionService.getSession({ appName: APP_NAME, userId, sessionId: listed!.id });
  return session!.state;
}
