/**
 * A call still awaiting the application's answer when summaries cover it: a long-running tool's call, or a call
 * waiting for the user's confirmation. Review 24 asked "is a job pending?" after two summaries of a summarizer that
 * kept nothing specific: the request held no trace of the deploy started at turn 2. The summary now lists the pending
 * calls it covers while they are pending, read from the session's events, on every replica.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  App,
  DatabaseSessionService,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type BaseSessionService,
  type Event,
} from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SUMMARY_MARKER } from '../../src/internal.js';
import { ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { APP_NAME, summarizingGuard, USER_ID, userMessage } from '../support/agent-harness.js';
import {
  deployAgent,
  forgetful,
  lateAnswer,
  runContentTurn,
  RESULT,
  textOf,
  type Gate,
} from '../support/deploy-job-script.js';

const WINDOW = 8_000;
const LISTED = "still awaiting the application's answer";
/** The job's pending response, with a ticket the summary should show. */
const PENDING = { status: 'pending', ticket: 'JOB-7731' };

function replica(sessionService: BaseSessionService, gate: Gate) {
  const { model, agent } = deployAgent(gate, PENDING);
  const plugins = [summarizingGuard({ summarizer: forgetful })];
  return { model, runner: new Runner({ appName: APP_NAME, agent, sessionService, plugins }) };
}

/** The summary content of a request: its first content carrying the marker. */
const summaryText = (contents: readonly Content[]): string =>
  textOf(contents.find((content) => textOf(content).startsWith(SUMMARY_MARKER)));

const holdsCall = (contents: readonly Content[]): boolean =>
  contents.some((content) => content.parts?.some((part) => part.functionCall?.name === 'start_job'));

/** The job started on turn 2, then `turns` turns of logs, alternating between the replicas. */
async function pendingJob(sessionService: BaseSessionService, gate: Gate, replicas: number, turns: number) {
  const runners = Array.from({ length: replicas }, () => replica(sessionService, gate));
  const at = (turn: number) => runners[turn % runners.length]!;
  const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const events: Event[] = [...(await runContentTurn(at(0).runner, id, userMessage('Check logs 0.')))];
  const started = await runContentTurn(at(1).runner, id, userMessage('Start the deploy job.'));
  events.push(...started);
  for (let turn = 2; turn < turns + 2; turn++)
    events.push(...(await runContentTurn(at(turn).runner, id, userMessage(`Check logs ${turn}.`))));
  return { id, at, events, answer: lateAnswer(gate, started) };
}

describe('a call awaiting the application, covered by summaries that drop it', () => {
  it.each([
    ['long-running', 'long-running', 1, 'its response so far: {"status":"pending","ticket":"JOB-7731"}'],
    ['awaiting confirmation', 'confirmation', 1, "awaiting the user's confirmation"],
    ['long-running, two replicas', 'long-running', 2, 'JOB-7731'],
  ] as const)(
    'should list the call while it is pending, and not once answered: %s',
    async (_, gate, replicas, line) => {
      const run = await pendingJob(new InMemorySessionService(), gate, replicas, 24);
      const { model, runner } = run.at(26);
      const from = model.requests.length;
      await runContentTurn(runner, run.id, userMessage('Is a job pending?'));
      const asked = model.requests[from]?.contents ?? [];
      // The call is covered: only the summary can say the job is still running.
      expect(holdsCall(asked)).toBe(false);
      const summary = summaryText(asked);
      expect(summary).toContain(LISTED);
      expect(summary).toContain('start_job {"target":"prod"}');
      expect(summary).toContain(line);

      // From the answer's own request on (the summary applied up to the call there, the record still listing it).
      const next = model.requests.length;
      await runContentTurn(runner, run.id, run.answer);
      await runContentTurn(runner, run.id, userMessage('Check logs 99.'));
      const after = model.requests.slice(next).map((request) => summaryText(request.contents));
      expect(after[0]).toContain(SUMMARY_MARKER);
      for (const text of after) expect(text).not.toContain(LISTED);
      expect(run.events.filter((event) => event.errorCode)).toEqual([]);
    },
  );

  it('should read the pending call from events stored in a database, on a replica that never saw it made', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'context-guard-pending-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const store = new DatabaseSessionService(`sqlite://${join(folder, 'sessions.sqlite')}`);
    await store.init();
    const run = await pendingJob(store, 'long-running', 1, 24);
    const fresh = replica(store, 'long-running');
    const from = fresh.model.requests.length;
    await runContentTurn(fresh.runner, run.id, userMessage('Is a job pending?'));
    const asked = fresh.model.requests[from]?.contents ?? [];
    expect(holdsCall(asked)).toBe(false);
    expect(summaryText(asked)).toContain('start_job {"target":"prod"}: its response so far');
  });
});

describe("a sub-agent's call awaiting the application, in a resumable App", () => {
  it("should be listed in the sub-agent's summary, not the lead's, and the answer resumed by the sub-agent", async () => {
    const sessionService = new InMemorySessionService();
    const { model: opsModel, agent: ops } = deployAgent('long-running', PENDING);
    const leadModel = new ScriptedLlm({
      model: 'scripted-lead',
      window: WINDOW,
      countTokens: ratioTokenCounter(1.2),
      script: () => ({
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: 'ops' } } }],
        },
      }),
    });
    const lead = new LlmAgent({ name: 'lead', model: leadModel, instruction: 'Route to ops.', subAgents: [ops] });
    const app = new App({
      name: APP_NAME,
      rootAgent: lead,
      plugins: [summarizingGuard({ summarizer: forgetful })],
      resumabilityConfig: { isResumable: true },
    });
    const runner = new Runner({ app, sessionService });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    // The lead hands the session to ops; from then on ADK routes each turn to ops, which starts the job.
    const events: Event[] = await runContentTurn(runner, id, userMessage('Hello.'));
    const started = await runContentTurn(runner, id, userMessage('Start the deploy job.'));
    events.push(...started);
    expect(started.some((event) => event.author === 'ops' && event.longRunningToolIds?.length)).toBe(true);
    for (let turn = 1; turn <= 24; turn++)
      events.push(...(await runContentTurn(runner, id, userMessage(`Check logs ${turn}.`))));
    const from = opsModel.requests.length;
    events.push(...(await runContentTurn(runner, id, userMessage('Is a job pending?'))));
    const asked = opsModel.requests[from]?.contents ?? [];
    expect(holdsCall(asked)).toBe(false);
    expect(summaryText(asked)).toContain('start_job {"target":"prod"}: its response so far');
    for (const request of leadModel.requests) expect(summaryText(request.contents)).not.toContain(LISTED);

    const answered = await runContentTurn(runner, id, lateAnswer('long-running', started));
    expect(answered.some((event) => event.author === 'ops')).toBe(true);
    expect(JSON.stringify(opsModel.requests.at(-1)?.contents)).toContain(RESULT);
    expect(summaryText(opsModel.requests.at(-1)?.contents ?? [])).not.toContain(LISTED);
    expect([...events, ...answered].filter((event) => event.errorCode)).toEqual([]);
  });
});
