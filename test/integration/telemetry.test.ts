/** Spans and metrics reach a registered OpenTelemetry SDK, with ADK's gen_ai naming. */
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { SummarizeRequest } from '../../src/index.js';
import { decodeCompactionRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { createHarness, summarizingGuard, toolThenAnswerScript } from '../support/agent-harness.js';
import { metricsProbe } from '../support/metrics-probe.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';

describe('OpenTelemetry', () => {
  it('should emit one compact_context span and one counted compaction per compaction', async () => {
    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    const probe = metricsProbe().register();

    // A summarizer that reports its usage, as llmSummarizer does from usageMetadata.
    const counting = new ScriptedSummarizer();
    const summarizer = {
      name: counting.name,
      summarize: async (request: SummarizeRequest) => ({
        ...(await counting.summarize(request)),
        promptTokens: request.prompt.length,
        outputTokens: 40,
      }),
    };
    const harness = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      plugins: [summarizingGuard({ summarizer })],
    });
    const stored = await harness.sessionAfterTurns(10);
    const compactions = decodeUsageRecord(stored.state[stateKeysFor('worker').usage]).compactions;
    expect(compactions).toBeGreaterThan(0);

    const compactSpans = spans.getFinishedSpans().filter((span) => span.name === 'compact_context worker');
    expect(compactSpans).toHaveLength(compactions);
    expect(compactSpans[0]!.attributes['gen_ai.operation.name']).toBe('compact_context');
    expect(compactSpans[0]!.attributes['gen_ai.agent.name']).toBe('worker');
    expect(Number(compactSpans[0]!.attributes['context_guard.tokens_before'])).toBeGreaterThan(
      Number(compactSpans[0]!.attributes['context_guard.tokens_after']),
    );
    // The summarizer's own bill rides on the span, as in the compaction record.
    const record = decodeCompactionRecord(stored.state[stateKeysFor('worker').lastCompaction]);
    const lastSpan = compactSpans[compactSpans.length - 1]!;
    expect(record?.summarizerPromptTokens).toBe(counting.calls[counting.calls.length - 1]!.prompt.length);
    expect(lastSpan.attributes['context_guard.summarizer.input_tokens']).toBe(record?.summarizerPromptTokens);
    expect(lastSpan.attributes['context_guard.summarizer.output_tokens']).toBe(40);

    const exported = await probe.exported();
    const counter = exported.find((metric) => metric.descriptor.name === 'gen_ai.context_guard.compactions');
    const total = counter?.dataPoints.reduce((sum, point) => sum + Number(point.value), 0);
    expect(total).toBe(compactions);
    expect(exported.some((metric) => metric.descriptor.name === 'gen_ai.context_guard.context.utilization')).toBe(true);
    await probe.shutdown();
  });
});
