/**
 * A summary prepared in the background before a late answer came, applied after it (review 16). ADK places the
 * answer right after its call, inside what the prepared summary covers; the summary never read it, and recorded it
 * as read: the agent answered "I do not know". Such a summary is dropped, and the call summarizes the answer itself.
 */
import { LlmAgent, LongRunningFunctionTool, Runner, type BaseSessionService, type Event } from '@google/adk';
import { InMemorySessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';
import { ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { APP_NAME, fetchLogsTool, summarizingGuard, USER_ID, userMessage } from '../support/agent-harness.js';
import { deployJobScript, RESULT, runContentTurn, textOf } from '../support/deploy-job-script.js';

const WINDOW = 8_000;

function replica(sessionService: BaseSessionService) {
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: ratioTokenCounter(1.2),
    script: deployJobScript(1_500),
  });
  const agent = new LlmAgent({
    name: 'ops',
    model,
    instruction: 'You run deploys.',
    tools: [
      new LongRunningFunctionTool({
        name: 'start_job',
        description: 'Starts a deploy job.',
        parameters: { type: 'OBJECT', properties: { target: { type: 'STRING' } } } as never,
        execute: () => ({ status: 'pending' }),
      }),
      fetchLogsTool(),
    ],
  });
  const logger = new CapturingLogger();
  const summarizer = new ScriptedSummarizer();
  // A summarizer that reads the whole of what a summary covers: what it is given is what it read.
  const guard = summarizingGuard({ logger, summarizer, prepareTurnsAhead: 2, summarizerContextWindow: 64_000 });
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  return { model, logger, summarizer, runner };
}

describe('a late answer after a summary was prepared', () => {
  it('should not apply a summary prepared before the answer over it, on the replica that prepared it', async () => {
    const sessionService = new InMemorySessionService();
    const a = replica(sessionService);
    const b = replica(sessionService);
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const started = await runContentTurn(a.runner, id, userMessage('Start the deploy job.'));
    // Replica a prepares a summary that covers the job's call, and has not applied it yet. None is prepared to cover
    // a pending call anew (the next test): this one extends the summary made at the threshold, which covers the call.
    let turn = 0;
    while (a.logger.matching('preparing a summary').length === 0 && turn < 40)
      await runContentTurn(a.runner, id, userMessage(`Check logs ${(turn += 1)}.`));
    const compacted = a.logger.matching('compacted contents').length;
    expect(a.logger.matching('preparing a summary').length).toBeGreaterThan(0);
    // The job's final answer reaches replica b.
    const callId = started.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall)
      ?.functionCall?.id;
    const answered = await runContentTurn(b.runner, id, {
      role: 'user',
      parts: [{ functionResponse: { id: callId, name: 'start_job', response: { status: 'done', result: RESULT } } }],
    });
    // Replica a goes on to its threshold, and is asked.
    const later: Event[] = [];
    for (let more = 0; more < 4; more++)
      later.push(...(await runContentTurn(a.runner, id, userMessage(`Check logs ${(turn += 1)}.`))));
    expect(a.logger.matching('compacted contents').length).toBeGreaterThan(compacted);
    // Dropped: the stored summary it extends was cut at the answered call (or, had none been cut, for the answer).
    const dropped =
      /prepared summary dropped: (the summary it extends|an answer the application|a late function response)/;
    expect([...a.logger.matching(dropped), ...b.logger.matching(dropped)]).not.toEqual([]);
    const next = a.model.requests.length;
    const asked = await runContentTurn(a.runner, id, userMessage('What was the job result?'));
    expect(JSON.stringify(a.model.requests[next]?.contents)).toContain(RESULT);
    expect(asked.map((event) => textOf(event.content)).join(' ')).toContain(`The result was ${RESULT}.`);
    expect([...answered, ...later, ...asked].filter((event) => event.errorCode)).toEqual([]);
  });

  it('should not prepare a summary that would newly cover a call still awaiting its answer', async () => {
    // The thirty-first outside trial: an approval asked every few turns and answered two turns later; four of the five
    // summaries prepared in 60 turns covered a pending approval and were thrown away when its answer came.
    const sessionService = new InMemorySessionService();
    const a = replica(sessionService);
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    let turn = 0;
    const events: Event[] = [];
    for (let job = 0; job < 8; job++) {
      const started = await runContentTurn(a.runner, id, userMessage('Start the deploy job.'));
      const callId = started.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall)
        ?.functionCall?.id;
      for (let check = 0; check < 2; check++)
        events.push(...(await runContentTurn(a.runner, id, userMessage(`Check logs ${(turn += 1)}.`))));
      const result = { status: 'done', result: job === 7 ? RESULT : `job ${job} done` };
      const answer = {
        role: 'user',
        parts: [{ functionResponse: { id: callId, name: 'start_job', response: result } }],
      };
      events.push(...started, ...(await runContentTurn(a.runner, id, answer)));
      events.push(...(await runContentTurn(a.runner, id, userMessage(`Check logs ${(turn += 1)}.`))));
    }
    expect(a.logger.matching('compacted contents').length).toBeGreaterThan(0);
    expect(a.logger.matching('preparing a summary').length).toBeGreaterThan(0);
    expect(a.logger.matching('arrived inside what it covers')).toEqual([]);
    const asked = await runContentTurn(a.runner, id, userMessage('What was the job result?'));
    expect(asked.map((event) => textOf(event.content)).join(' ')).toContain(`The result was ${RESULT}.`);
    expect([...events, ...asked].filter((event) => event.errorCode)).toEqual([]);
  });
});
