/**
 * One `AgentTool` child agent object shared by two apps (two Runners, each
 * with its own ContextGuard): each app's policy applies to the child's calls
 * it makes. App 1 turns guarding off for the child, app 2 guards it on a
 * small window. ADK runs the child in a Runner named after the child, with
 * no plugins, so the child itself cannot tell which app called it; the guard
 * callbacks on the shared object are those of the first guard that attached.
 *
 * Guarantees:
 * - app 2's child calls are guarded (no rejection by the strict model), and
 *   app 1's child calls are left alone (no guard state, no compaction),
 *   whichever app ran first, with one AgentTool shared or one per app;
 * - the same when both apps call the child at the same time;
 * - the same for a grandchild: a shared child's own `AgentTool` child;
 * - a tool that cannot be wrapped (frozen) is logged, and its child keeps the
 *   guard first attached to it, as before.
 * - each child request carries only its own app's conversation.
 */
import { AgentTool, InMemorySessionService, LlmAgent, LogLevel, Runner, setLogLevel, type Event } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import type { RecordedRequest } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { fetchThenAnswer, fetchTool } from '../support/fault-harness.js';
import { researcherAgent } from '../support/help-desk.js';
import { agentModel, recordingGuard } from '../support/scripted-agents.js';

setLogLevel(LogLevel.ERROR);

const USER = 'user-a';
// Both apps use the same session id (a front end's own thread id), each in its own session service.
const SESSION_ID = 'chat-1';
const TURNS = 8;
const CHILD_WINDOW = 6_000;
const APPS = ['app-1', 'app-2'] as const;
type AppName = (typeof APPS)[number];

/** The child both apps call: it fetches 3,500 characters per call into a 6,000-token window. */
function sharedChild() {
  const model = agentModel('researcher', CHILD_WINDOW, fetchThenAnswer(3_500));
  const running = { now: 0, most: 0 };
  const agent = researcherAgent(model, [fetchTool()], {
    // Counts the child runs in flight, to show that the concurrent variant overlaps them.
    beforeAgentCallback: () => void (running.most = Math.max(running.most, ++running.now)),
    afterAgentCallback: () => void running.now--,
  });
  return { model, agent, running };
}

/** An app whose lead agent asks the child on every turn, with its own guard and session service. */
async function app(appName: AppName, tool: AgentTool) {
  // App 1 turns guarding off for the child; app 2 guards it on its small window.
  const researcher = appName === 'app-1' ? { enabled: false } : { contextWindow: CHILD_WINDOW };
  const { guard, records, logger } = recordingGuard({ agents: { researcher } });
  const lead = new LlmAgent({
    name: 'lead',
    model: agentModel(
      `lead-${appName}`,
      64_000,
      callThenAnswer({
        call: ({ index }) => ({ name: tool.name, args: { request: `[${appName}] Research item ${index}.` } }),
        answer: () => 'Done.',
      }),
    ),
    instruction: 'Delegate research.',
    tools: [tool],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName, agent: lead, sessionService, plugins: [guard] });
  await sessionService.createSession({ appName, userId: USER, sessionId: SESSION_ID });
  const results: unknown[] = [];
  const turn = async (index: number) => {
    const events: Event[] = [];
    for await (const event of runner.runAsync({
      userId: USER,
      sessionId: SESSION_ID,
      newMessage: { role: 'user', parts: [{ text: `Turn ${index}: have it researched.` }] },
    }))
      events.push(event);
    results.push(
      ...events
        .flatMap((event) => event.content?.parts ?? [])
        .filter((part) => part.functionResponse?.name === tool.name)
        .map((part) => part.functionResponse?.response?.['result']),
    );
  };
  const runTurns = async () => {
    for (let index = 1; index <= TURNS; index++) await turn(index);
  };
  const childState = async () =>
    (await sessionService.getSession({ appName: 'researcher', userId: USER, sessionId: SESSION_ID }))!.state;
  return { appName, records, logger, results, runTurns, childState };
}

/** The apps whose marker appears in a child request: its own conversation only, so exactly one. */
function appsIn(request: RecordedRequest): string[] {
  return [...new Set(JSON.stringify(request.contents).match(/\[app-\d\]/g) ?? [])];
}

async function twoApps(sharing: 'one AgentTool' | 'an AgentTool each') {
  const child = sharedChild();
  const shared = new AgentTool({ agent: child.agent });
  const tool = () => (sharing === 'one AgentTool' ? shared : new AgentTool({ agent: child.agent }));
  return { child, apps: { 'app-1': await app('app-1', tool()), 'app-2': await app('app-2', tool()) } };
}

async function expectEachAppsPolicy({ child, apps }: Awaited<ReturnType<typeof twoApps>>) {
  const requestsOf = (appName: AppName) => child.model.requests.filter((r) => appsIn(r).includes(`[${appName}]`));
  expect(child.model.requests.filter((request) => appsIn(request).length !== 1)).toEqual([]);
  const [first, second] = [requestsOf('app-1'), requestsOf('app-2')];

  // App 2: guarded on its small window, under its own guard; every result carries the child's answer.
  expect(second.length).toBeGreaterThan(TURNS);
  expect(second.filter((request) => request.rejected).map((request) => request.promptTokens)).toEqual([]);
  expect(apps['app-2'].records.filter((record) => record.agentName === 'researcher').length).toBeGreaterThan(0);
  const usage = decodeUsageRecord((await apps['app-2'].childState())[stateKeysFor('researcher').usage]);
  expect(usage.modelCalls).toBe(second.length);
  expect(usage.window).toBe(CHILD_WINDOW);
  expect(apps['app-2'].results.filter((result) => !String(result).startsWith('Answer '))).toEqual([]);

  // App 1: left alone, as its policy says; the same load overflows the child's window there.
  expect(apps['app-1'].records).toEqual([]);
  expect((await apps['app-1'].childState())[stateKeysFor('researcher').usage]).toBeUndefined();
  expect(first.filter((request) => request.rejected).length).toBeGreaterThan(0);
}

describe('an AgentTool child shared by two apps', () => {
  describe.each(['one AgentTool', 'an AgentTool each'] as const)('%s', (sharing) => {
    it.each([
      ['app 1', ['app-1', 'app-2']],
      ['app 2', ['app-2', 'app-1']],
    ] as const)('should apply each calling app its own policy when %s runs first', async (_label, order) => {
      const setup = await twoApps(sharing);
      for (const appName of order) await setup.apps[appName].runTurns();
      await expectEachAppsPolicy(setup);
    });

    it('should apply each calling app its own policy when both call the child at the same time', async () => {
      const setup = await twoApps(sharing);
      await Promise.all(APPS.map((appName) => setup.apps[appName].runTurns()));
      // The two apps' child runs did overlap.
      expect(setup.child.running.most).toBe(2);
      await expectEachAppsPolicy(setup);
    });
  });
});

describe('an AgentTool grandchild shared by two apps', () => {
  it("should apply the calling app's policy to the shared child's own AgentTool child", async () => {
    const grandchild = sharedChild();
    const middle = new LlmAgent({
      name: 'middle',
      model: agentModel(
        'middle',
        64_000,
        callThenAnswer({
          // Passes the app's request on, marker included.
          call: ({ request }) => ({ name: 'researcher', args: { request: JSON.stringify(request.contents.at(-1)) } }),
          // Relays the researcher's answer, so an empty one shows in the app's results.
          answer: ({ request }) => String(request.contents.at(-1)?.parts?.[0]?.functionResponse?.response?.['result']),
        }),
      ),
      instruction: 'Relay research.',
      tools: [new AgentTool({ agent: grandchild.agent })],
    });
    const shared = new AgentTool({ agent: middle });
    const apps = { 'app-1': await app('app-1', shared), 'app-2': await app('app-2', shared) };
    // App 1 first: its guard, which leaves the researcher alone, attaches to both first.
    for (const appName of APPS) await apps[appName].runTurns();
    await expectEachAppsPolicy({ child: grandchild, apps });
  });
});

describe('an AgentTool that cannot be wrapped', () => {
  it('should log it and leave the child under the guard first attached to it', async () => {
    const child = sharedChild();
    const frozen = new AgentTool({ agent: child.agent });
    Object.freeze(frozen);
    const guarded = await app('app-2', frozen);
    await guarded.runTurns();
    // Guarded as before the hand-over existed: app 2's guard is the one attached.
    expect(child.model.rejectedRequests).toEqual([]);
    expect(guarded.records.length).toBeGreaterThan(0);
    expect(guarded.results.filter((result) => !String(result).startsWith('Answer '))).toEqual([]);
    const errors = guarded.logger.atOrAbove('error').map((line) => line.message);
    const notice =
      "[context_guard] could not mark the call of the AgentTool child 'researcher' as this app's; it runs under the guard first attached to it.";
    expect(errors).toHaveLength(TURNS);
    // Each line names the session and invocation it came from (logging/session-log.ts).
    const untagged = (message: string) =>
      message.replace(/^\[context_guard\] \[session chat-1, invocation [^\]]+\]/, '[context_guard]');
    expect(errors.filter((message) => !untagged(message).startsWith(notice))).toEqual([]);
  });
});
