/**
 * OpenTelemetry for ContextGuard, through `@opentelemetry/api` (the API ADK
 * itself uses), so spans and metrics land in whatever SDK the application
 * registered, next to ADK's own `call_llm` spans. Without an SDK every call is
 * a no-op.
 *
 * - span `compact_context <agent>` (child of ADK's `call_llm`), with `gen_ai.*`
 *   attributes and the record's figures;
 * - metrics `gen_ai.context_guard.compactions` (counter),
 *   `gen_ai.context_guard.compaction.duration` (s),
 *   `gen_ai.context_guard.compaction.tokens` (attribute `stage`: before/after),
 *   `gen_ai.context_guard.context.utilization` (request / window, every call),
 *   `gen_ai.context_guard.summarizer.duration` (s, a summary prepared in the background),
 *   `gen_ai.context_guard.compaction.wait` (s, what the compacting call waited for its summary;
 *   attribute `context_guard.prepared`),
 *   `gen_ai.context_guard.prepared.wait_expired` (counter: calls that waited for another replica's
 *   summary until `preparedSummaryWaitMs`, then summarized themselves),
 *   `gen_ai.context_guard.maskings` (counter; attribute `context_guard.cause`: `room` when a
 *   compaction was due, `cost` for stale tool output with the window far from full),
 *   `gen_ai.context_guard.retried_calls` (counter: calls the provider rejected as too long,
 *   compacted and sent again within the same model call),
 *   `gen_ai.context_guard.interactions.chain_tokens` (Gemini's Interactions API: the estimate of
 *   the server-held chain after a call), `gen_ai.context_guard.interactions.fresh_chains` (counter:
 *   chains the guard started afresh), `gen_ai.context_guard.tool_output.cuts` and `.offloads` (counters: tool results
 *   cut to their limits, and those stored whole as an artifact).
 */
import { context, trace, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import type { CompactionRecord } from '../records/compaction-record.js';
import { lazyInstruments, SECONDS_BUCKETS, SHARE_BUCKETS, TELEMETRY_SCOPE, TOKEN_BUCKETS } from './instruments.js';

const meters = lazyInstruments({
  compactions: {
    kind: 'counter',
    name: 'gen_ai.context_guard.compactions',
    description: "Compactions of an agent's context",
  },
  duration: {
    kind: 'histogram',
    name: 'gen_ai.context_guard.compaction.duration',
    unit: 's',
    description: 'Time of one compaction, summarizer included',
    buckets: SECONDS_BUCKETS,
  },
  tokens: {
    kind: 'histogram',
    name: 'gen_ai.context_guard.compaction.tokens',
    unit: '{token}',
    description: 'Request tokens before and after a compaction',
    buckets: TOKEN_BUCKETS,
  },
  utilization: {
    kind: 'histogram',
    name: 'gen_ai.context_guard.context.utilization',
    unit: '1',
    description: 'Calibrated request size over the context window',
    buckets: SHARE_BUCKETS,
  },
  summarizer: {
    kind: 'histogram',
    name: 'gen_ai.context_guard.summarizer.duration',
    unit: 's',
    description: 'Time of a summarizer call made in the background, ahead of the threshold',
    buckets: SECONDS_BUCKETS,
  },
  maskings: {
    kind: 'counter',
    name: 'gen_ai.context_guard.maskings',
    description: 'Maskings of old tool results (no model call), by cause: room or cost',
  },
  waitExpired: {
    kind: 'counter',
    name: 'gen_ai.context_guard.prepared.wait_expired',
    description:
      "Calls at the threshold that waited preparedSummaryWaitMs for another replica's summary, then summarized themselves",
  },
  retried: {
    kind: 'counter',
    name: 'gen_ai.context_guard.retried_calls',
    description: 'Calls rejected as too long, compacted and sent again within the same model call',
  },
  wait: {
    kind: 'histogram',
    name: 'gen_ai.context_guard.compaction.wait',
    unit: 's',
    description: 'Time a compacting model call waited for its summary',
    buckets: SECONDS_BUCKETS,
  },
  serverChain: {
    kind: 'histogram',
    name: 'gen_ai.context_guard.interactions.chain_tokens',
    unit: '{token}',
    description: 'Interactions API: calibrated estimate of the server-held chain after a call',
    buckets: TOKEN_BUCKETS,
  },
  toolCuts: {
    kind: 'counter',
    name: 'gen_ai.context_guard.tool_output.cuts',
    description: 'Tool results cut to their limits (toolOutputTruncation)',
  },
  offloads: {
    kind: 'counter',
    name: 'gen_ai.context_guard.tool_output.offloads',
    description: 'Cut tool results stored whole as an artifact the model reads back',
  },
  freshChains: {
    kind: 'counter',
    name: 'gen_ai.context_guard.interactions.fresh_chains',
    description: 'Interactions API: server-side chains started afresh (at the threshold or after an overflow)',
  },
} as const);

/** Records a finished compaction as a span (back-dated to its start) and metrics. */
export function recordCompactionTelemetry(record: CompactionRecord, model: string | undefined): void {
  // Metric attributes stay bounded (agent, model, flags): the session id rides on the span only,
  // since on a metric it would make one time series per conversation.
  const attributes: Attributes = {
    'gen_ai.operation.name': 'compact_context',
    'gen_ai.agent.name': record.agentName,
    ...(model ? { 'gen_ai.request.model': model } : {}),
  };
  const span = trace.getTracer(TELEMETRY_SCOPE).startSpan(
    `compact_context ${record.agentName}`,
    {
      startTime: record.createdAt,
      attributes: {
        ...attributes,
        'gen_ai.conversation.id': record.sessionId,
        // The guard's calibrated estimates, not billed tokens (gen_ai.usage.* is what a provider billed on ADK's spans).
        'context_guard.tokens_before': record.tokensBefore,
        'context_guard.tokens_after': record.tokensAfter,
        'context_guard.compression_ratio': record.compressionRatio,
        'context_guard.covered_events': record.coveredEvents.count,
        'context_guard.summarizer': record.summarizer,
        'context_guard.fallback': record.fallback,
        'context_guard.reason': record.reason,
        'context_guard.prepared': record.prepared === true,
        'context_guard.waited_ms': record.waitedMs ?? record.durationMs,
        ...(record.summarizerPromptTokens !== undefined
          ? { 'context_guard.summarizer.input_tokens': record.summarizerPromptTokens }
          : {}),
        ...(record.summarizerOutputTokens !== undefined
          ? { 'context_guard.summarizer.output_tokens': record.summarizerOutputTokens }
          : {}),
      },
    },
    context.active(),
  );
  if (record.fallback)
    span.setStatus({ code: SpanStatusCode.ERROR, message: record.fallbackReason ?? 'summarizer failed' });
  span.end(record.createdAt + record.durationMs);
  const { compactions, duration, tokens, wait } = meters();
  const prepared = record.prepared === true;
  const waitedMs = record.waitedMs ?? record.durationMs;
  compactions.add(1, {
    ...attributes,
    'context_guard.fallback': record.fallback,
    'context_guard.prepared': prepared,
    'context_guard.waited': waitedMs > 0,
  });
  wait.record(waitedMs / 1000, { ...attributes, 'context_guard.prepared': prepared });
  duration.record(record.durationMs / 1000, attributes);
  tokens.record(record.tokensBefore, { ...attributes, stage: 'before' });
  tokens.record(record.tokensAfter, { ...attributes, stage: 'after' });
}

/** Records the utilisation of the window by one request. */
export function recordUtilization(agentName: string, calibrated: number, window: number): void {
  if (window > 0) meters().utilization.record(calibrated / window, { 'gen_ai.agent.name': agentName });
}

/** Records a masking of old tool results and why it was made. */
export function recordMasking(agentName: string, cause: 'room' | 'cost'): void {
  meters().maskings.add(1, { 'gen_ai.agent.name': agentName, 'context_guard.cause': cause });
}

/** Records the time of a summarizer call made in the background (background compaction). */
export function recordPreparedSummary(agentName: string, summarizerMs: number, fallback: boolean): void {
  meters().summarizer.record(summarizerMs / 1000, {
    'gen_ai.agent.name': agentName,
    'context_guard.background': true,
    'context_guard.fallback': fallback,
  });
}

/** A call at the threshold gave up waiting for the summary another replica prepares. */
export function recordPreparedWaitExpired(agentName: string): void {
  meters().waitExpired.add(1, { 'gen_ai.agent.name': agentName });
}

/** A call the provider rejected as too long was compacted and sent again, within the same model call. */
export function recordRetriedCall(agentName: string): void {
  meters().retried.add(1, { 'gen_ai.agent.name': agentName });
}

/** Interactions API: the calibrated estimate of the chain the server holds after a call. */
export function recordServerChain(agentName: string, tokens: number): void {
  meters().serverChain.record(tokens, { 'gen_ai.agent.name': agentName });
}

/** A tool result was cut to its limits. */
export function recordToolCut(agentName: string, toolName: string): void {
  meters().toolCuts.add(1, { 'gen_ai.agent.name': agentName, 'gen_ai.tool.name': toolName });
}

/** A cut tool result was stored whole as an artifact. */
export function recordOffload(agentName: string, toolName: string): void {
  meters().offloads.add(1, { 'gen_ai.agent.name': agentName, 'gen_ai.tool.name': toolName });
}

/** Interactions API: the guard started a fresh server-side chain. */
export function recordFreshChain(agentName: string): void {
  meters().freshChains.add(1, { 'gen_ai.agent.name': agentName });
}
