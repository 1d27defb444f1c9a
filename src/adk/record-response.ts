/**
 * After a model call: the compaction record rides on the response event, and the provider's
 * real prompt count calibrates the agent's usage record (and bills the call).
 */
import type { Context, LlmResponse } from '@google/adk';
import { billUsage } from '../cost/bill-usage.js';
import { priceFor } from '../cost/price-table.js';
import { recordAccepted } from '../guard/learned-window.js';
import { recordReportedUsage } from '../guard/record-usage.js';
import { COMPACTION_METADATA_KEY } from '../records/compaction-record.js';
import { decodeUsageRecord, encodeRecord, type UsageRecord } from '../state/guard-state.js';
import { stateKeysFor } from '../state/state-keys.js';
import { recordUsageTelemetry } from '../telemetry/usage-telemetry.js';
import type { ContextGuardOptions } from '../options.js';
import type { CompactionReporter } from './compaction-reporter.js';
import { modelNameOf } from './model-name.js';
import type { ModelWindowResolver } from './model-window-resolver.js';

/**
 * Responses already recorded. ADK runs an agent's own after-model callbacks after the plugins', so
 * where the plugin and `attachTo` both serve an agent each response arrives twice: count it once.
 */
const recorded = new WeakSet<LlmResponse>();

export function recordResponse(
  context: Context,
  response: LlmResponse,
  prices: ContextGuardOptions['prices'],
  parts: { readonly reporter: CompactionReporter; readonly windows: ModelWindowResolver },
  onUnpriced: (model: string) => void = () => undefined,
): void {
  if (recorded.has(response)) return;
  recorded.add(response);
  const agentName = context.agentName;
  if (!response.partial) {
    // The compaction's audit record travels on the model response event (ADK persists customMetadata verbatim).
    const record = parts.reporter.take(context);
    if (record) response.customMetadata = { ...(response.customMetadata ?? {}), [COMPACTION_METADATA_KEY]: record };
  }
  const keys = stateKeysFor(agentName);
  const stored = decodeUsageRecord(context.state.get<unknown>(keys.usage));
  const model = modelNameOf(context, response);
  // An answer, not an error response: the model accepted the request (its size bounds any window learned later).
  const usage = response.errorCode ? stored : acceptRequest(stored, response, model, parts.windows);
  if (!response.usageMetadata) {
    if (usage !== stored) context.state.set(keys.usage, encodeRecord(usage));
    return;
  }
  const reported: UsageRecord = recordReportedUsage(usage, response.usageMetadata);
  // Partial (streamed) chunks repeat usage that the final response reports: bill that one only.
  const price = priceFor(model, prices);
  if (!response.partial && price === undefined) onUnpriced(model ?? 'unknown');
  const next = response.partial ? reported : billUsage(reported, response.usageMetadata, price);
  if (next !== stored) context.state.set(keys.usage, encodeRecord(next));
  if (next !== reported) recordUsageTelemetry(agentName, model, next, reported);
}

/** The session's and the process's largest accepted request of `model`, with this one. */
function acceptRequest(
  usage: UsageRecord,
  response: LlmResponse,
  model: string | undefined,
  windows: ModelWindowResolver,
): UsageRecord {
  const real = response.usageMetadata?.promptTokenCount;
  const next = recordAccepted(usage, model, real);
  windows.accept(model, { tokens: next.acceptedTokens, estimate: next.acceptedEstimate });
  return next;
}
