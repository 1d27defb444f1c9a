/**
 * An `AgentTool` child keeps its session across delegations: ADK 2.0.0 keys it by the child's
 * name, the user and the parent's session id, so its history grows with every call within one
 * parent session (docs/design.md, "Agents ADK runs without plugins"). The guard, attached to the
 * child by the parent's plugin, compacts that history as it grows: the summary is stored in the
 * child's session and applied on later delegations, and the parent's requests are left alone.
 * A rejection inside the child is retried there too (the child has no plugins, so no error hook).
 */
import { AgentTool, InMemorySessionService, LlmAgent, Runner, type Event } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { logText, ScriptedLlm, ratioTokenCounter, type ModelScript } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { fetchThenAnswer, fetchTool } from '../support/fault-harness.js';
import { researcherAgent } from '../support/help-desk.js';
import { recordingGuard } from '../support/scripted-agents.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';

const DELEGATIONS = 10;
const SUMMARY_MARK = '[context_guard summary]';

/** The lead asks the researcher once per turn, then answers with what it got. */
function leadScript(): ModelScript {
  return callThenAnswer({
    after: 'researcher',
    call: ({ index }) => ({ name: 'researcher', args: { request: `Research question ${index}.` } }),
    answer: ({ index }) => `Lead answer ${index}: ${logText(100, index)}`,
  });
}

function leadWithChild(childModel: ScriptedLlm, options: Parameters<typeof recordingGuard>[0]) {
  const recording = recordingGuard(options);
  const leadModel = new ScriptedLlm({
    model: 'scripted-lead',
    window: 64_000,
    countTokens: ratioTokenCounter(2),
    script: leadScript(),
  });
  const researcher = researcherAgent(childModel, [fetchTool()]);
  const lead = new LlmAgent({
    name: 'lead',
    model: leadModel,
    instruction: 'You lead the research.',
    tools: [new AgentTool({ agent: researcher })],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent: lead, sessionService, plugins: [recording.guard] });
  return { ...recording, leadModel, runner, sessionService };
}

async function delegate(runner: Runner, sessionId: string, turns: number): Promise<Event[]> {
  const events: Event[] = [];
  for (let turn = 1; turn <= turns; turn++)
    for await (const event of runner.runAsync({
      userId: USER_ID,
      sessionId,
      newMessage: userMessage(`Turn ${turn}: research it.`),
    }))
      events.push(event);
  return events;
}

/** What the lead got back from the researcher, in order. */
function childResults(events: readonly Event[]): unknown[] {
  return events
    .flatMap((event) => event.content?.parts ?? [])
    .filter((part) => part.functionResponse?.name === 'researcher')
    .map((part) => part.functionResponse?.response?.['result']);
}

function startsWithSummary(contents: ScriptedLlm['requests'][number]['contents']): boolean {
  return contents[0]?.parts?.[0]?.text?.startsWith(SUMMARY_MARK) ?? false;
}

describe('an AgentTool child over ten delegations', () => {
  it('should compact the child as its session grows, store its summary in the child session and apply it, and leave the parent alone', async () => {
    const childModel = new ScriptedLlm({
      model: 'scripted-researcher',
      window: 4_000,
      countTokens: ratioTokenCounter(2),
      script: fetchThenAnswer(2_000),
    });
    const world = leadWithChild(childModel, { agents: { researcher: { contextWindow: 4_000 } } });
    const parent = await world.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const events = await delegate(world.runner, parent.id, DELEGATIONS);

    // Every delegation answered, no child request rejected.
    const results = childResults(events);
    expect(results).toHaveLength(DELEGATIONS);
    for (const result of results) expect(result).toMatch(/^Answer \d+/);
    expect(childModel.rejectedRequests).toEqual([]);

    // The child's session (named after the child, with the parent's user and session id) kept every delegation.
    const child = await world.sessionService.getSession({
      appName: 'researcher',
      userId: USER_ID,
      sessionId: parent.id,
    });
    expect(child).toBeDefined();
    // (The guard's own state-only events are authored `user` too, without content.)
    const userTurns = child!.events.filter((event) => event.author === 'user' && event.content?.parts?.[0]?.text);
    expect(userTurns).toHaveLength(DELEGATIONS);

    // Its history was compacted as it grew, and the summary is stored in the child session.
    const childCompactions = world.records.filter((record) => record.agentName === 'researcher');
    expect(childCompactions.length).toBeGreaterThan(0);
    expect(childCompactions.every((record) => record.sessionId === parent.id)).toBe(true);
    const summary = decodeSummaryRecord(child!.state[stateKeysFor('researcher').summary]);
    expect(summary?.text.length).toBeGreaterThan(0);

    // Applied on later delegations: the last request starts with the summary and carries fewer contents than the history.
    const last = childModel.requests.at(-1)!;
    expect(startsWithSummary(last.contents)).toBe(true);
    const historyContents = child!.events.filter((event) => event.content).length;
    expect(last.contents.length).toBeLessThan(historyContents);
    // Once made, a summary is in every later child request: the growing history never goes out whole again.
    const firstWithSummary = childModel.requests.findIndex((request) => startsWithSummary(request.contents));
    expect(childModel.requests.slice(firstWithSummary).every((request) => startsWithSummary(request.contents))).toBe(
      true,
    );

    // The parent is unaffected: no compaction, no summary, its whole history in every request.
    expect(world.records.filter((record) => record.agentName === 'lead')).toEqual([]);
    const stored = await world.sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: parent.id });
    expect(stored!.state[stateKeysFor('lead').summary]).toBeUndefined();
    expect(decodeUsageRecord(stored!.state[stateKeysFor('lead').usage]).compactions).toBe(0);
    for (const request of world.leadModel.requests) expect(startsWithSummary(request.contents)).toBe(false);
    const leadSizes = world.leadModel.requests.map((request) => request.contents.length);
    expect(leadSizes).toEqual([...leadSizes].sort((a, b) => a - b));
  });

  it('should retry a rejected child call inside the child: an unknown model learns its window once and every delegation answers', async () => {
    const childModel = new ScriptedLlm({
      model: 'scripted-researcher',
      window: 4_000,
      countTokens: ratioTokenCounter(2),
      script: fetchThenAnswer(2_000),
    });
    // No window for the child's model: the guard assumes the default until the provider says otherwise.
    const world = leadWithChild(childModel, {});
    const parent = await world.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const events = await delegate(world.runner, parent.id, DELEGATIONS);

    expect(childModel.rejectedRequests).toHaveLength(1);
    // Before, AgentTool turned the child's 400 into an empty result, and the child, with no error hook, never learned.
    const results = childResults(events);
    expect(results).toHaveLength(DELEGATIONS);
    for (const result of results) expect(result).toMatch(/^Answer \d+/);
    const child = await world.sessionService.getSession({
      appName: 'researcher',
      userId: USER_ID,
      sessionId: parent.id,
    });
    const usage = decodeUsageRecord(child!.state[stateKeysFor('researcher').usage]);
    expect({ rejected: usage.rejectedCalls, retried: usage.retriedCalls, window: usage.learnedWindow }).toEqual({
      rejected: 1,
      retried: 1,
      window: 4_000,
    });
  });

  it("should list in the child session's status only the child, not the caller's agents ADK copied into it", async () => {
    const childModel = new ScriptedLlm({
      model: 'scripted-researcher',
      window: 4_000,
      countTokens: ratioTokenCounter(2),
      script: fetchThenAnswer(2_000),
    });
    const world = leadWithChild(childModel, { agents: { researcher: { contextWindow: 4_000 } } });
    const parent = await world.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    await delegate(world.runner, parent.id, 4);
    const child = await world.sessionService.getSession({
      appName: 'researcher',
      userId: USER_ID,
      sessionId: parent.id,
    });
    // ADK seeded the child's session with the caller's state: the lead's record is in it.
    expect(child!.state[stateKeysFor('lead').usage]).toBeDefined();
    const names = (session: Parameters<typeof world.guard.status>[0]) =>
      (world.guard.status(session) as { agentName: string }[]).map((status) => status.agentName);
    // The forty-fourth outside trial: the lead was listed there at its first delegation's figures.
    expect(names(child)).toEqual(['researcher']);
    const stored = await world.sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: parent.id });
    // The caller's session still shows the child, from the state ADK copies back.
    expect(names(stored)).toEqual(['lead', 'researcher']);
    // A session read without its app (a bare state) lists every record, as before.
    expect(names({ state: child!.state })).toEqual(['lead', 'researcher']);
  });
});
