/**
 * A call the provider rejects as too long is compacted and sent again inside the same model call,
 * through the wrapper the guard puts around the agent's model, so the user sees an answer instead
 * of a 400 error event, and ADK post-processes the retried answer like any other: a tool it calls
 * runs, and other plugins' after-model callbacks see it. Once per call, never for other errors,
 * never when the request cannot be made smaller; a second rejection reaches the user as before.
 */
import { BasePlugin, StreamingMode, type Context, type Event, type LlmResponse } from '@google/adk';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { CALL_METADATA_KEY, decodeCallRecord } from '../../src/records/call-record.js';
import {
  CapturingLogger,
  logText,
  promptTooLongError,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
  type ModelScript,
} from '../../src/testing/index.js';
import { createHarness, errorCodes, runTurns, toolThenAnswerScript, userMessage } from '../support/agent-harness.js';
import { metricsProbe, type MetricsProbe } from '../support/metrics-probe.js';

const REAL_WINDOW = 8_000;

/** Two `fetch_logs` calls per turn, then an answer: the call after the first result calls the tool again. */
function toolsThenAnswer(toolSize: number, tools = 2): ModelScript {
  return ({ request }) => {
    const contents = request.contents;
    let results = 0;
    for (let at = contents.length - 1; at >= 0 && !contents[at]!.parts?.some((part) => part.text); at--)
      if (contents[at]!.parts?.some((part) => part.functionResponse)) results++;
    if (results < tools)
      return {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'fetch_logs', args: { size: toolSize, seed: contents.length + 1 } } }],
        },
      };
    return { content: { role: 'model', parts: [{ text: `Done: ${logText(150, contents.length)}` }] } };
  };
}

/** Records every response the after-model hook of a plugin sees, as ADK hands them to plugins. */
class AfterModelProbe extends BasePlugin {
  readonly seen: LlmResponse[] = [];
  constructor() {
    super('after_model_probe');
  }
  override async afterModelCallback({ llmResponse }: { callbackContext: Context; llmResponse: LlmResponse }) {
    this.seen.push(llmResponse);
    return undefined;
  }
}

function callRecordOf(event: { customMetadata?: Record<string, unknown> | undefined }) {
  return decodeCallRecord(event.customMetadata?.[CALL_METADATA_KEY]);
}

function functionCallIds(event: Event): string[] {
  return (event.content?.parts ?? []).flatMap((part) => (part.functionCall?.id ? [part.functionCall.id] : []));
}

function functionResponseIds(event: Event): string[] {
  return (event.content?.parts ?? []).flatMap((part) => (part.functionResponse?.id ? [part.functionResponse.id] : []));
}

let probe: MetricsProbe | undefined;
afterEach(async () => {
  await probe?.shutdown();
  probe = undefined;
});

async function retriedCallsMetric(metrics: MetricsProbe): Promise<number> {
  const metric = (await metrics.exported()).find(
    (data) => data.descriptor.name === 'gen_ai.context_guard.retried_calls',
  );
  return (metric?.dataPoints ?? []).reduce((sum, point) => sum + (point.value as number), 0);
}

describe('a call rejected as too long', () => {
  it('should be compacted and retried inside its call on an unknown 8k model: no error event in 30 tool turns, and the tool the retried answer calls runs', async () => {
    probe = metricsProbe().register();
    const model = new ScriptedLlm({
      window: REAL_WINDOW,
      countTokens: ratioTokenCounter(2),
      script: toolsThenAnswer(1_200),
    });
    const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger: new CapturingLogger() });
    const after = new AfterModelProbe();
    const harness = createHarness({ model, plugins: [guard, after] });
    const session = await harness.startSession();
    const events = await harness.runTurns(session.id, 30);

    expect(errorCodes(events)).toEqual([]);
    expect(model.rejectedRequests).toHaveLength(1);
    const rejected = model.rejectedRequests[0]!;
    // The retry is the very next request, of the same step: the same in-flight content, made smaller.
    const retry = model.requests[rejected.index + 1]!;
    expect(retry.rejected).toBe(false);
    expect(retry.contents.at(-1)).toEqual(rejected.contents.at(-1));
    expect(retry.promptTokens).toBeLessThan(REAL_WINDOW);

    // The retried answer is on the event that carries the retry's record: it calls the tool, and the tool runs.
    const answered = events.filter((event) => (callRecordOf(event)?.retriedCalls ?? 0) > 0);
    expect(answered).toHaveLength(1);
    const retriedEvent = answered[0]!;
    expect(callRecordOf(retriedEvent)).toMatchObject({ rejectedCalls: 1, retriedCalls: 1 });
    const calls = functionCallIds(retriedEvent);
    expect(calls).toHaveLength(1);
    const ran = events
      .slice(events.indexOf(retriedEvent) + 1)
      .find((event) => functionResponseIds(event).includes(calls[0]!));
    expect(ran?.content?.parts?.[0]?.functionResponse?.response).toHaveProperty('logs');
    // Other plugins' after-model callbacks saw the retried answer.
    expect(after.seen.some((response) => response.content?.parts?.[0]?.functionCall?.id === calls[0])).toBe(true);

    const status = guard.status(await harness.storedSession(session.id), 'worker');
    expect({ rejected: status.rejectedCalls, retried: status.retriedCalls, window: status.window }).toEqual({
      rejected: 1,
      retried: 1,
      window: REAL_WINDOW,
    });
    // Every request the provider got is a model call: the rejected one and its retry included.
    expect(status.modelCalls).toBe(model.requests.length);
    expect(await retriedCallsMetric(probe)).toBe(1);
  });

  it('should retry a streamed call (SSE) the same way', async () => {
    const model = new ScriptedLlm({
      window: REAL_WINDOW,
      countTokens: ratioTokenCounter(2),
      script: toolThenAnswerScript(1_500),
    });
    const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger: new CapturingLogger() });
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.startSession();
    const events: Event[] = [];
    for (let turn = 1; turn <= 30; turn++)
      for await (const event of harness.runner.runAsync({
        userId: session.userId,
        sessionId: session.id,
        newMessage: userMessage(`Turn ${turn}: check the logs.`),
        runConfig: { streamingMode: StreamingMode.SSE },
      }))
        events.push(event);
    expect(errorCodes(events)).toEqual([]);
    expect(model.rejectedRequests).toHaveLength(1);
    expect(guard.status(await harness.storedSession(session.id), 'worker').retriedCalls).toBe(1);
  });

  it('should send a second rejection of the retried request to the user as before, without retrying again', async () => {
    let failAt: number | undefined;
    const model = new ScriptedLlm({
      window: 100_000,
      countTokens: ratioTokenCounter(2),
      script: toolThenAnswerScript(1_500),
      // From the 12th request on, the provider says no twice in a row: the call and its retry.
      fail: ({ index, promptTokens }) => {
        if (index === 11) failAt = index;
        return failAt !== undefined && index <= failAt + 1
          ? promptTooLongError(promptTokens, Math.floor(promptTokens * 0.9))
          : undefined;
      },
    });
    const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger: new CapturingLogger() });
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.startSession();
    const events = await runTurns(harness.runner, session.id, 10);

    expect(errorCodes(events)).toEqual(['400']);
    // The call (request 11) and its one retry (12); the next request is a new turn's.
    expect(model.requests.length).toBeGreaterThan(13);
    expect(model.requests[12]!.contents.at(-1)).toEqual(model.requests[11]!.contents.at(-1));
    expect(model.requests[13]!.contents.at(-1)).not.toEqual(model.requests[12]!.contents.at(-1));
    const status = guard.status(await harness.storedSession(session.id), 'worker');
    expect({ rejected: status.rejectedCalls, retried: status.retriedCalls }).toEqual({ rejected: 2, retried: 1 });
  });

  it('should not retry a request that cannot be made smaller, and count its rejection once', async () => {
    const logger = new CapturingLogger();
    const model = new ScriptedLlm({
      window: REAL_WINDOW,
      countTokens: ratioTokenCounter(2),
      script: toolThenAnswerScript(0),
    });
    // An instruction larger than the window: nothing the guard can remove makes the request fit.
    const guard = new ContextGuard({ contextWindow: REAL_WINDOW, summarizer: new ScriptedSummarizer(), logger });
    const harness = createHarness({ model, plugins: [guard], instruction: logText(40_000, 7) });
    const session = await harness.startSession();
    const events = await runTurns(harness.runner, session.id, 1);

    expect(errorCodes(events)).toEqual(['400']);
    expect(model.requests).toHaveLength(1);
    const stored = await harness.storedSession(session.id);
    const status = guard.status(stored, 'worker');
    expect({ rejected: status.rejectedCalls, retried: status.retriedCalls }).toEqual({ rejected: 1, retried: 0 });
    // The usage record too: the retry learned from the rejection, and the error hook did not learn again.
    expect(decodeUsageRecord(stored.state[stateKeysFor('worker').usage]).rejectedCalls).toBe(1);
    expect(logger.matching('cannot be made smaller; not retried')).toHaveLength(1);
  });

  it('should not retry another provider error', async () => {
    const model = new ScriptedLlm({
      window: REAL_WINDOW,
      countTokens: ratioTokenCounter(2),
      script: toolThenAnswerScript(500),
      fail: ({ index }) =>
        index === 2 ? new Error(JSON.stringify({ error: { code: 429, message: 'Resource exhausted.' } })) : undefined,
    });
    const guard = new ContextGuard({ contextWindow: REAL_WINDOW, summarizer: new ScriptedSummarizer() });
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.startSession();
    const events = await runTurns(harness.runner, session.id, 2);
    expect(errorCodes(events)).toEqual(['429']);
    // Turn 1: call and answer; turn 2: the failed call, then turn 2 ends; no request was sent twice.
    expect(model.requests).toHaveLength(3);
    expect(guard.status(await harness.storedSession(session.id), 'worker').retriedCalls).toBe(0);
  });
});
