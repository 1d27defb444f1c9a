/**
 * Every agent the plugin can reach is guarded, through real ADK Runners.
 *
 * Guarantees:
 * - with the plugin alone, an `AgentTool` child (which ADK runs in a new
 *   Runner without plugins) is guarded too, next to transfer sub-agents: no
 *   rejected request, no empty tool result, and the child's own callbacks
 *   still run;
 * - attaching by hand as well (`guard.attachTo(child)`) changes nothing: one
 *   set of guard callbacks per agent, one guard pass per request;
 * - `guard.attachTo(agent)` keeps the agent's own callbacks (all of them run)
 *   and guards an agent run without any plugin.
 */
import {
  AgentTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
  type Event,
  type SingleAfterModelCallback,
  type SingleAfterToolCallback,
  type SingleBeforeModelCallback,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { logText } from '../../src/testing/index.js';
import { fetchThenAnswer, fetchTool } from '../support/fault-harness.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { agentModel, modelProblems, recordingGuard } from '../support/scripted-agents.js';
import { deskAgent, researcherAgent, routerAgent, transferTo } from '../support/help-desk.js';

setLogLevel(LogLevel.ERROR);

const APP = 'guard-attachment';
const USER = 'user-a';

async function run(runner: Runner, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({
    userId: USER,
    sessionId,
    newMessage: { role: 'user', parts: [{ text }] },
  }))
    events.push(event);
  return events;
}

/** The results the parent got from the AgentTool, in order. */
function agentToolResults(events: readonly Event[], toolName: string): unknown[] {
  return events
    .flatMap((event) => event.content?.parts ?? [])
    .filter((part) => part.functionResponse?.name === toolName)
    .map((part) => part.functionResponse?.response?.['result']);
}

/**
 * A router that transfers to `billing`, which asks the `researcher` AgentTool
 * child on every turn and then answers. The child fetches 3,500 characters
 * per call into a 6,000-token window, and its session persists across calls.
 */
function deskWithAgentToolChild(attachByHand: boolean) {
  const { guard, records } = recordingGuard({
    agents: {
      router: { contextWindow: 64_000 },
      billing: { contextWindow: 16_000 },
      researcher: { contextWindow: 6_000 },
    },
  });
  const childCalls = { beforeModel: 0, afterModel: 0, afterTool: 0 };
  const researcherModel = agentModel('researcher', 6_000, fetchThenAnswer(3_500));
  const researcher = researcherAgent(researcherModel, [fetchTool()], {
    // The child's own callbacks, which must keep running.
    beforeModelCallback: () => void childCalls.beforeModel++,
    afterModelCallback: () => void childCalls.afterModel++,
    afterToolCallback: () => void childCalls.afterTool++,
  });
  if (attachByHand) guard.attachTo(researcher);
  const routerModel = agentModel('router', 64_000, transferTo('billing'));
  const billingModel = agentModel(
    'billing',
    16_000,
    callThenAnswer({
      after: 'researcher',
      call: ({ index }) => ({ name: 'researcher', args: { request: `Research invoice ${index}.` } }),
      answer: ({ index }) => `billing answer ${index}: ${logText(120, index)}`,
    }),
  );
  const router = routerAgent(routerModel, [
    deskAgent('billing', billingModel, [new AgentTool({ agent: researcher })]),
    deskAgent('support', agentModel('support', 8_000, fetchThenAnswer(1_000))),
  ]);
  return { guard, records, childCalls, researcher, researcherModel, billingModel, routerModel, router };
}

describe('the plugin alone', () => {
  it.each([
    ['plugin only', false],
    ['plugin and attachTo by hand', true],
  ])(
    'should guard an AgentTool child next to transfer sub-agents (%s): no rejection, no empty result, child callbacks kept',
    async (_label, attachByHand) => {
      const desk = deskWithAgentToolChild(attachByHand);
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: APP, agent: desk.router, sessionService, plugins: [desk.guard] });
      const session = await sessionService.createSession({ appName: APP, userId: USER });
      const results: unknown[] = [];
      const errors: string[] = [];
      for (let turn = 1; turn <= 10; turn++) {
        const events = await run(
          runner,
          session.id,
          `Billing question ${turn}: why was invoice ${turn}00 charged twice?`,
        );
        results.push(...agentToolResults(events, 'researcher'));
        errors.push(...events.filter((event) => event.errorCode).map((event) => `${event.author}: ${event.errorCode}`));
      }

      expect(errors).toEqual([]);
      expect(results).toHaveLength(10);
      // AgentTool turns a rejected child into "" without an error: every result must carry the child's answer.
      expect(results.filter((result) => typeof result !== 'string' || !result.startsWith('Answer '))).toEqual([]);
      expect(modelProblems(desk.researcherModel, desk.billingModel, desk.routerModel)).toEqual([]);
      // The child compacted under its own policy and its own keys, in its own session.
      expect(desk.records.some((record) => record.agentName === 'researcher')).toBe(true);
      const childSession = await sessionService.getSession({
        appName: 'researcher',
        userId: USER,
        sessionId: session.id,
      });
      expect(decodeUsageRecord(childSession!.state[stateKeysFor('researcher').usage]).modelCalls).toBe(
        desk.researcherModel.requests.length,
      );
      expect(decodeUsageRecord(childSession!.state[stateKeysFor('researcher').usage]).window).toBe(6_000);
      // The child's own callbacks ran on every call, and the guard's were added once.
      expect(desk.childCalls.beforeModel).toBe(desk.researcherModel.requests.length);
      expect(desk.childCalls.afterModel).toBe(desk.researcherModel.requests.length);
      expect(desk.childCalls.afterTool).toBe(10);
      expect([desk.researcher.beforeModelCallback].flat()).toHaveLength(2);
      expect([desk.researcher.afterModelCallback].flat()).toHaveLength(2);
    },
  );
});

describe('guard.attachTo(agent)', () => {
  /** An agent with its own callbacks of every kind, as Google's customer_service sample has. */
  function agentWithCallbacks() {
    const calls = { rateLimiter: 0, afterModel: 0, afterTool: 0 };
    const rateLimiter: SingleBeforeModelCallback = () => void calls.rateLimiter++;
    const afterModel: SingleAfterModelCallback = () => void calls.afterModel++;
    const afterTool: SingleAfterToolCallback = () => void calls.afterTool++;
    const workerModel = agentModel('worker', 8_000, fetchThenAnswer(4_000));
    const agent = new LlmAgent({
      name: 'worker',
      model: workerModel,
      instruction: 'You work.',
      tools: [fetchTool()],
      beforeModelCallback: rateLimiter,
      afterModelCallback: [afterModel],
      afterToolCallback: afterTool,
    });
    return { agent, calls, workerModel };
  }

  it('should guard an agent run without plugins and keep every callback it already had', async () => {
    const { agent, calls, workerModel } = agentWithCallbacks();
    const { guard, records } = recordingGuard({ agents: { worker: { contextWindow: 8_000 } } });
    expect(guard.attachTo(agent)).toBe(agent);
    // Idempotent: a second call (or the plugin finding it later) adds nothing.
    guard.attachTo(agent);
    const sessionService = new InMemorySessionService();
    // No plugins at all, as under `adk run --replay`: the agent-level callbacks are the only guard.
    const runner = new Runner({ appName: APP, agent, sessionService });
    const session = await sessionService.createSession({ appName: APP, userId: USER });
    for (let turn = 1; turn <= 12; turn++)
      expect((await run(runner, session.id, `Turn ${turn}: fetch it.`)).filter((event) => event.errorCode)).toEqual([]);

    expect(workerModel.rejectedRequests.map((request) => request.promptTokens)).toEqual([]);
    expect(records.length).toBeGreaterThan(0);
    expect(calls.rateLimiter).toBe(workerModel.requests.length);
    expect(calls.afterModel).toBe(workerModel.requests.length);
    expect(calls.afterTool).toBe(12);
    expect([agent.beforeModelCallback].flat()).toHaveLength(2);
    expect([agent.afterModelCallback].flat()).toHaveLength(2);
    expect([agent.afterToolCallback].flat()).toHaveLength(2);
    const state = (await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id }))!.state;
    expect(decodeUsageRecord(state[stateKeysFor('worker').usage]).modelCalls).toBe(workerModel.requests.length);
  });

  it('should guard each request once when the same guard is also the plugin', async () => {
    const { agent, workerModel } = agentWithCallbacks();
    const { guard } = recordingGuard({ agents: { worker: { contextWindow: 8_000 } } });
    guard.attachTo(agent);
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP, agent, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP, userId: USER });
    for (let turn = 1; turn <= 6; turn++) await run(runner, session.id, `Turn ${turn}: fetch it.`);
    const state = (await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id }))!.state;
    const usage = decodeUsageRecord(state[stateKeysFor('worker').usage]);
    expect(usage.modelCalls).toBe(workerModel.requests.length);
    // Each response is billed once, though both the plugin and the agent-level form see it.
    const reported = workerModel.requests.reduce((sum, request) => sum + request.promptTokens, 0);
    expect(usage.billedPromptTokens).toBe(reported);
    expect(workerModel.rejectedRequests).toEqual([]);
  });
});
