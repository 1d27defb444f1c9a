/**
 * Isolation through real ADK Runners: agents (sub-agents with transfers,
 * parallel branches, an agent with no policy, an AgentTool child covered by
 * the plugin alone or by the agent-callback form), sessions and users, and the logs.
 *
 * Guarantees:
 * - every agent keeps its own policy, usage record and summary under
 *   `context_guard:<agent>:*`, whether it is reached by transfer, runs in a
 *   parallel branch, or has no policy (it gets the defaults, not silence);
 * - an AgentTool child, which ADK runs in a new Runner without plugins, is
 *   kept inside its window by the plugin (which attaches to it), or by
 *   `guard.agentCallbacks()` spread into its config, without double attaching;
 * - a summary never crosses sessions or users: the keys are session-scoped,
 *   never `app:` or `user:`;
 * - nothing from the conversation is logged at the default (info) level.
 */
import {
  AgentTool,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  ParallelAgent,
  Runner,
  setLogLevel,
  type BaseAgent,
} from '@google/adk';
import type { Content } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import {
  POLICY_DEFAULTS,
  SUMMARY_MARKER,
  decodeSummaryRecord,
  decodeUsageRecord,
  resolvePolicy,
  stateKeysFor,
} from '../../src/internal.js';
import { CapturingLogger, type ModelScript, type RecordedRequest, logText } from '../../src/testing/index.js';
import { fetchTool } from '../support/fault-harness.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { agentModel, modelProblems, recordingGuard } from '../support/scripted-agents.js';
import { deskAgent, researcherAgent, routerAgent, transferTo } from '../support/help-desk.js';
import { ScriptedSummarizerLlm } from '../../src/testing/index.js';

setLogLevel(LogLevel.ERROR);

const APP = 'guard-isolation';
const USER = 'user-i';
let isolationCases = 0;
afterAll(() => console.log(`[isolation] cases: ${isolationCases}`));

/** On a user turn (or a hand-over) calls `fetch` with `chars`, then answers. */
function fetchThenAnswer(agent: string, chars: number): ModelScript {
  return callThenAnswer({
    after: 'fetch',
    call: () => ({ name: 'fetch', args: { size: chars } }),
    answer: ({ index }) => `${agent} answer ${index}: ${logText(150, index)}`,
  });
}

async function run(runner: Runner, sessionId: string, text: string, userId = USER): Promise<string[]> {
  const errors: string[] = [];
  for await (const event of runner.runAsync({ userId, sessionId, newMessage: { role: 'user', parts: [{ text }] } })) {
    if (event.errorCode) errors.push(`${event.author}: ${event.errorCode} ${event.errorMessage ?? ''}`);
  }
  return errors;
}

function texts(requests: readonly RecordedRequest[]): string {
  return requests.map((request) => JSON.stringify(request.contents)).join('\n');
}

describe('agents', () => {
  it('should keep a router and the sub-agent it transfers to (transfer_to_agent) on their own policies, usage and summaries', async () => {
    isolationCases++;
    const routerModel = agentModel('router', 64_000, (call) => {
      const { request } = call;
      // The router hands every new question to billing with ADK's transfer tool.
      const declared = (request.config?.tools ?? [])
        .flatMap((tool) => ('functionDeclarations' in tool ? (tool.functionDeclarations ?? []) : []))
        .map((declaration) => declaration.name);
      expect(declared).toContain('transfer_to_agent');
      return transferTo('billing')(call);
    });
    const billingModel = agentModel('billing', 6_000, fetchThenAnswer('billing', 4_000));
    const supportModel = agentModel('support', 6_000, fetchThenAnswer('support', 4_000));
    const router = routerAgent(routerModel, [
      deskAgent('billing', billingModel, [fetchTool()]),
      deskAgent('support', supportModel, [fetchTool()]),
    ]);
    const { guard, records } = recordingGuard({
      agents: {
        router: { contextWindow: 64_000 },
        billing: { contextWindow: 6_000, bufferRatio: 0.3 },
        support: { contextWindow: 6_000 },
      },
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP, agent: router, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP, userId: USER });

    // Turn 1 goes through the router; ADK resumes later turns directly with billing.
    for (let turn = 1; turn <= 8; turn++)
      expect(
        await run(runner, session.id, `Billing question ${turn}: why was invoice ${turn}00 charged twice?`),
      ).toEqual([]);

    expect(routerModel.requests).toHaveLength(1);
    expect(billingModel.requests.length).toBeGreaterThan(8);
    expect(supportModel.requests).toHaveLength(0);
    const state = (await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id }))!.state;
    const routerUsage = decodeUsageRecord(state[stateKeysFor('router').usage]);
    const billingUsage = decodeUsageRecord(state[stateKeysFor('billing').usage]);
    expect(routerUsage.modelCalls).toBe(1);
    expect(billingUsage.modelCalls).toBe(billingModel.requests.length);
    // Each on its own policy: billing's 6k window with a 30% buffer, the router's 64k.
    expect(billingUsage.window).toBe(6_000);
    expect(routerUsage.window).toBe(64_000);
    expect(billingUsage.threshold).toBe(4_200);
    // Billing compacted, alone; the router and support never did and have no summary.
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => record.agentName === 'billing')).toBe(true);
    expect(decodeSummaryRecord(state[stateKeysFor('billing').summary])).toBeDefined();
    expect(state[stateKeysFor('router').summary]).toBeUndefined();
    expect(state[stateKeysFor('support').usage]).toBeUndefined();
    expect(modelProblems(routerModel, billingModel)).toEqual([]);
  });

  it("should keep the two branches of a ParallelAgent apart: own policy, own usage, own summary, never the other branch's", async () => {
    isolationCases++;
    const leftModel = agentModel('left', 5_000, fetchThenAnswer('left', 3_000));
    const rightModel = agentModel('right', 9_000, fetchThenAnswer('right', 3_000));
    const leftTool = new FunctionTool({
      name: 'fetch',
      description: 'Fetches.',
      parameters: { type: 'OBJECT', properties: { size: { type: 'INTEGER' } } } as never,
      execute: (input: unknown) => ({ logs: `LEFT-ONLY ${logText((input as { size: number }).size, 11)}` }),
    });
    const rightTool = new FunctionTool({
      name: 'fetch',
      description: 'Fetches.',
      parameters: { type: 'OBJECT', properties: { size: { type: 'INTEGER' } } } as never,
      execute: (input: unknown) => ({ logs: `RIGHT-ONLY ${logText((input as { size: number }).size, 13)}` }),
    });
    const left = new LlmAgent({
      name: 'left',
      model: leftModel,
      instruction: 'You are the left branch.',
      tools: [leftTool],
    });
    const right = new LlmAgent({
      name: 'right',
      model: rightModel,
      instruction: 'You are the right branch.',
      tools: [rightTool],
    });
    const parallel = new ParallelAgent({ name: 'par', subAgents: [left, right] });
    const { guard, records } = recordingGuard({
      agents: { left: { contextWindow: 5_000 }, right: { contextWindow: 9_000 } },
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP, agent: parallel, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP, userId: USER });
    for (let turn = 1; turn <= 8; turn++)
      expect(await run(runner, session.id, `Turn ${turn}: both of you, check.`)).toEqual([]);

    const state = (await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id }))!.state;
    const leftSummary = decodeSummaryRecord(state[stateKeysFor('left').summary]);
    const rightSummary = decodeSummaryRecord(state[stateKeysFor('right').summary]);
    expect(decodeUsageRecord(state[stateKeysFor('left').usage]).modelCalls).toBe(leftModel.requests.length);
    expect(decodeUsageRecord(state[stateKeysFor('right').usage]).modelCalls).toBe(rightModel.requests.length);
    expect(decodeUsageRecord(state[stateKeysFor('left').usage]).window).toBe(5_000);
    expect(decodeUsageRecord(state[stateKeysFor('right').usage]).window).toBe(9_000);
    // The smaller branch compacts more often, each on its own.
    const leftCompactions = records.filter((record) => record.agentName === 'left').length;
    const rightCompactions = records.filter((record) => record.agentName === 'right').length;
    expect(leftSummary).toBeDefined();
    expect(leftCompactions).toBeGreaterThan(rightCompactions);
    // Neither branch ever sees the other's results, or the other's summary.
    expect(texts(leftModel.requests)).not.toContain('RIGHT-ONLY');
    expect(texts(rightModel.requests)).not.toContain('LEFT-ONLY');
    expect(texts(rightModel.requests)).not.toContain(leftSummary!.text);
    expect(rightSummary).toBeDefined();
    expect(texts(leftModel.requests)).not.toContain(rightSummary!.text);
    expect(modelProblems(leftModel, rightModel)).toEqual([]);
  });

  it('should give an agent with no policy the defaults, not silence', async () => {
    isolationCases++;
    const plainModel = agentModel('plain', 8_000, fetchThenAnswer('plain', 3_000));
    const plain = new LlmAgent({
      name: 'plain',
      model: plainModel,
      instruction: 'You have no policy of your own.',
      tools: [fetchTool()],
    });
    // Policies exist for other agents only; the plain agent's window comes from the model table.
    const { guard, records } = recordingGuard({
      agents: { someone_else: { contextWindow: 2_000, enabled: false } },
      modelWindows: { 'scripted-summarizer': 32_000, 'scripted-plain': 8_000 },
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP, agent: plain, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP, userId: USER });
    for (let turn = 1; turn <= 12; turn++) expect(await run(runner, session.id, `Turn ${turn}: fetch it.`)).toEqual([]);

    // Not listed under `agents`: the built-in defaults (and the global options, here the summarizer and masking off).
    expect(guard.policyFor('plain')).toMatchObject({ ...POLICY_DEFAULTS, maskKeepRecent: 0 });
    expect(guard.policyFor('plain')).toEqual(
      resolvePolicy({ summarizer: guard.policyFor('plain').summarizer, maskKeepRecent: 0 }, 'plain'),
    );
    const usage = decodeUsageRecord(
      (await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id }))!.state[
        stateKeysFor('plain').usage
      ],
    );
    expect(usage.modelCalls).toBe(plainModel.requests.length);
    // The defaults: a 20% buffer on the 8k window (threshold 6,400 once calibrated).
    expect(usage.window).toBe(8_000);
    expect(usage.threshold).toBe(6_400);
    expect(records.length).toBeGreaterThan(0);
    expect(modelProblems(plainModel)).toEqual([]);
  });

  it('should keep an AgentTool child (run by ADK without plugins) inside its window, by the plugin alone or with guard.agentCallbacks()', async () => {
    isolationCases++;
    const runParent = async (attachment: 'none' | 'plugin' | 'agent-callbacks') => {
      const withCallbacks = attachment === 'agent-callbacks';
      const childModel = agentModel('researcher', 6_000, fetchThenAnswer('researcher', 3_500));
      const { guard, records } = recordingGuard({ agents: { researcher: { contextWindow: 6_000 } } });
      const child = researcherAgent(childModel, [fetchTool()], withCallbacks ? guard.agentCallbacks() : {});
      const parentModel = agentModel(
        'lead',
        64_000,
        callThenAnswer({
          call: () => ({ name: 'researcher', args: { request: 'Research the incident.' } }),
          answer: () => 'Done.',
        }),
      );
      const lead = new LlmAgent({
        name: 'lead',
        model: parentModel,
        instruction: 'Delegate research.',
        tools: [new AgentTool({ agent: child })],
      });
      const sessionService = new InMemorySessionService();
      const runner = new Runner({
        appName: APP,
        agent: lead,
        sessionService,
        plugins: attachment === 'none' ? [] : [guard],
      });
      const session = await sessionService.createSession({ appName: APP, userId: USER });
      const errors: string[] = [];
      // The child's session (appName 'researcher', same id) accumulates across the calls.
      for (let turn = 1; turn <= 8; turn++)
        errors.push(...(await run(runner, session.id, `Turn ${turn}: have it researched.`)));
      const childSession = await sessionService.getSession({
        appName: 'researcher',
        userId: USER,
        sessionId: session.id,
      });
      return { childModel, records, errors, childSession, child };
    };

    const unguarded = await runParent('none');
    // Control: without a guard the child's session grows until the child overflows.
    expect(unguarded.childModel.rejectedRequests.length).toBeGreaterThan(0);
    expect(unguarded.records).toEqual([]);

    for (const attachment of ['plugin', 'agent-callbacks'] as const) {
      const guarded = await runParent(attachment);
      expect(guarded.childModel.rejectedRequests).toEqual([]);
      expect(guarded.records.length).toBeGreaterThan(0);
      expect(guarded.records.every((record) => record.agentName === 'researcher')).toBe(true);
      // The child's state lives in the child's own session, under its own keys.
      expect(decodeUsageRecord(guarded.childSession!.state[stateKeysFor('researcher').usage]).modelCalls).toBe(
        guarded.childModel.requests.length,
      );
      expect(decodeSummaryRecord(guarded.childSession!.state[stateKeysFor('researcher').summary])).toBeDefined();
      // One guard on the child: the plugin does not add itself next to callbacks attached by hand.
      expect([guarded.child.beforeModelCallback].flat()).toHaveLength(1);
      expect(modelProblems(guarded.childModel)).toEqual([]);
    }
  });
});

describe('sessions and users', () => {
  async function compactedSession(
    sessionService: InMemorySessionService,
    agent: BaseAgent,
    guard: ContextGuard,
    userId: string,
    secret: string,
  ) {
    const runner = new Runner({ appName: APP, agent, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP, userId });
    for (let turn = 1; turn <= 10; turn++)
      expect(await run(runner, session.id, `${secret} turn ${turn}: fetch the file.`, userId)).toEqual([]);
    const state = (await sessionService.getSession({ appName: APP, userId, sessionId: session.id }))!.state;
    return { runner, session, summary: decodeSummaryRecord(state[stateKeysFor('worker').summary]) };
  }

  it.each([
    ['the same user', 'user-a', 'user-a'],
    ['different users', 'user-a', 'user-b'],
  ])('should never show a summary from one session in another (%s)', async (_label, firstUser, secondUser) => {
    isolationCases++;
    const workerModel = agentModel('worker', 6_000, fetchThenAnswer('worker', 3_000));
    const worker = new LlmAgent({ name: 'worker', model: workerModel, instruction: 'You work.', tools: [fetchTool()] });
    const { guard } = recordingGuard({ contextWindow: 6_000 });
    const sessionService = new InMemorySessionService();
    const first = await compactedSession(sessionService, worker, guard, firstUser, 'ALPHA-SESSION');
    expect(first.summary).toBeDefined();
    const before = workerModel.requests.length;

    const second = await compactedSession(sessionService, worker, guard, secondUser, 'BRAVO-SESSION');
    const secondRequests = workerModel.requests.slice(before);
    expect(texts(secondRequests)).not.toContain('ALPHA-SESSION');
    expect(texts(secondRequests)).not.toContain(first.summary!.text);
    // Its own summary chain, started afresh.
    expect(second.summary?.text).not.toBe(first.summary!.text);
    expect(second.summary?.compactions).toBeLessThanOrEqual(first.summary!.compactions + 1);
    // Session-scoped keys only: a brand-new session of either user starts with no guard state at all.
    for (const userId of [firstUser, secondUser]) {
      const fresh = await sessionService.createSession({ appName: APP, userId });
      const keys = Object.keys(fresh.state);
      expect(keys.filter((key) => key.includes('context_guard'))).toEqual([]);
    }
    const allKeys = Object.keys(
      (await sessionService.getSession({ appName: APP, userId: firstUser, sessionId: first.session.id }))!.state,
    );
    expect(
      allKeys.filter((key) => key.startsWith('app:') || key.startsWith('user:') || key.startsWith('temp:')),
    ).toEqual([]);
    expect(allKeys.every((key) => key.startsWith('context_guard:worker:'))).toBe(true);
  });
});

describe('logs', () => {
  const SECRET = 'SECRET-7f3a9c-hunter2';

  /** The lines at info level or above that carry the secret (their first 200 characters). */
  function secretLines(logger: CapturingLogger): string[] {
    return logger
      .atOrAbove('info')
      .filter((line) => line.message.includes(SECRET))
      .map((line) => line.message.slice(0, 200));
  }

  /** A session whose user messages, tool results, answers and summaries all carry the secret. */
  async function secretSession(
    summarizerMode: 'ok' | 'throw' | 'hang',
    overrides: Partial<{ summarizer: ScriptedSummarizerLlm }> = {},
  ) {
    const script = callThenAnswer({
      call: () => ({ name: 'fetch', args: { size: 3_000, note: SECRET } }),
      answer: ({ index }) => `About ${SECRET}: answer ${index}. ${logText(200, index)}`,
    });
    const workerModel = agentModel('worker', 6_000, script);
    const worker = new LlmAgent({
      name: 'worker',
      model: workerModel,
      instruction: 'You work.',
      tools: [fetchTool((size) => ({ logs: `${SECRET} ${logText(size, 5)}` }))],
    });
    const summarizer = overrides.summarizer ?? new ScriptedSummarizerLlm();
    summarizer.mode = summarizerMode;
    const { guard, logger, records } = recordingGuard({ contextWindow: 6_000, summarizer, summarizerTimeoutMs: 50 });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP, agent: worker, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP, userId: USER });
    for (let turn = 1; turn <= 8; turn++) await run(runner, session.id, `My password is ${SECRET}; turn ${turn}.`);
    return { logger, records, workerModel };
  }

  it.each(['ok', 'throw', 'hang'] as const)(
    'should log nothing from the conversation at info level or above (summarizer %s)',
    async (mode) => {
      isolationCases++;
      const { logger, records } = await secretSession(mode);
      expect(records.length).toBeGreaterThan(0);
      expect(logger.atOrAbove('info').length).toBeGreaterThan(0);
      expect(secretLines(logger)).toEqual([]);
    },
  );

  it('should not log conversation text that a failing summarizer quotes in its error message', async () => {
    isolationCases++;
    // Some providers quote the offending input in a 400's message; the guard logs the summarizer's failure reason.
    class QuotingSummarizer extends ScriptedSummarizerLlm {
      // eslint-disable-next-line require-yield -- this provider fails before its first chunk
      override async *generateContentAsync(
        request: Parameters<ScriptedSummarizerLlm['generateContentAsync']>[0],
      ): ReturnType<ScriptedSummarizerLlm['generateContentAsync']> {
        const prompt = (request.contents ?? [])
          .flatMap((content: Content) => content.parts ?? [])
          .map((part) => part.text ?? '')
          .join(' ');
        const at = prompt.indexOf(SECRET);
        throw new Error(
          JSON.stringify({
            error: { code: 400, message: `Invalid argument near: "${prompt.slice(Math.max(0, at - 20), at + 40)}"` },
          }),
        );
      }
    }
    const { logger, records } = await secretSession('ok', { summarizer: new QuotingSummarizer() });
    expect(records.length).toBeGreaterThan(0);
    expect(records[0]?.fallback).toBe(true);
    expect(secretLines(logger)).toEqual([]);
  });

  it('should still send the conversation and its summary to the model (the secret is withheld from the logs only)', async () => {
    isolationCases++;
    const { workerModel } = await secretSession('ok');
    // Sanity for the log tests: the secret did reach the model (it is the conversation), only the logs must not carry it.
    expect(texts(workerModel.requests)).toContain(SECRET);
    expect(texts(workerModel.requests)).toContain(SUMMARY_MARKER);
  });
});
