/**
 * The guard's metrics carry no identifier of a session, user or invocation:
 * such an attribute makes one time series per conversation in a metrics backend.
 * Those ids belong on the compact_context span only.
 */
import { trace } from '@opentelemetry/api';
import { DataPointType, type MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { createHarness, summarizingGuard, toolThenAnswerScript, USER_ID } from '../support/agent-harness.js';
import { metricsProbe } from '../support/metrics-probe.js';

/** Every attribute value of every data point of `metric`, with the attribute's name. */
function attributeValues(metric: MetricData): Array<[string, unknown]> {
  return metric.dataPoints.flatMap((point) => Object.entries(point.attributes));
}

describe('OpenTelemetry metric attributes', () => {
  it('should put no session, user or invocation id on any metric, so that two sessions add to the same series', async () => {
    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    const probe = metricsProbe().register();
    const harness = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      plugins: [summarizingGuard()],
    });
    const first = await harness.startSession();
    const second = await harness.startSession();
    const events = [...(await harness.runTurns(first.id, 8)), ...(await harness.runTurns(second.id, 8))];
    const compactionsOf = async (sessionId: string) =>
      decodeUsageRecord((await harness.storedSession(sessionId)).state[stateKeysFor('worker').usage]).compactions;
    const perSession = [await compactionsOf(first.id), await compactionsOf(second.id)];
    expect(perSession.every((count) => count > 0)).toBe(true);

    const exported = await probe.exported();
    const identifiers = new Set<unknown>([first.id, second.id, USER_ID, ...events.map((event) => event.invocationId)]);
    const leaks = exported.flatMap((metric) =>
      attributeValues(metric)
        .filter(([name, value]) => name === 'gen_ai.conversation.id' || identifiers.has(value))
        .map(([name]) => `${metric.descriptor.name}: ${name}`),
    );
    expect(leaks).toEqual([]);

    // Both sessions' compactions land on one series (the duration histogram has no other attribute that varies).
    const duration = exported.find((metric) => metric.descriptor.name === 'gen_ai.context_guard.compaction.duration');
    expect(duration?.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(duration?.dataPoints).toHaveLength(1);
    expect(duration?.dataPoints[0]?.value).toMatchObject({ count: perSession[0]! + perSession[1]! });
    // The session id stays on the compact_context span, where one value per trace costs nothing.
    const conversations = spans
      .getFinishedSpans()
      .filter((span) => span.name === 'compact_context worker')
      .map((span) => span.attributes['gen_ai.conversation.id']);
    expect(new Set(conversations)).toEqual(new Set([first.id, second.id]));
    await probe.shutdown();
  });
});
