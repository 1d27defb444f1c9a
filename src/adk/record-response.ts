/**
 * After a model call: the compaction record rides on the response event, and the provider's
 * real prompt count calibrates the agent's usage record (and bills the call).
 */
import type { Context, LlmResponse } from '@google/adk';
import { billUsage } from '../cost/bill-usage.js';
import { priceFor } from '../cost/price-table.js';
import { recordReportedUsage } from '../guard/record-usage.js';
import { COMPACTION_METADATA_KEY } from '../records/compaction-record.js';
import { decodeUsageRecord, encodeRecord, type UsageRecord } from '../state/guard-state.js';
import { stateKeysFor } from '../state/state-keys.js';
import { recordUsageTelemetry } from '../telemetry/usage-telemetry.js';
import type { ContextGuardOptions } from '../options.js';
import type { CompactionReporter } from './compaction-reporter.js';
import { modelNameOf } from './model-name.js';

/**
 * Responses already recorded. ADK runs an agent's own after-model callbacks after the plugins', so
 * where the plugin and `attachTo` both serve an agent each response arrives twice: count it once.
 */
const recorded = new WeakSet<LlmResponse>();

export function recordResponse(
  context: Context,
  response: LlmResponse,
  prices: ContextGuardOptions['prices'],
  reporter: CompactionReporter,
  onUnpriced: (model: string) => void = () => undefined,
): void {
  if (recorded.has(response)) return;
  recorded.add(response);
  const agentName = context.agentName;
  if (!response.partial) {
    // The compaction's audit record travels on the model response event (ADK persists customMetadata verbatim).
    const record = reporter.take(context);
    if (record) response.customMetadata = { ...(response.customMetadata ?? {}), [COMPACTION_METADATA_KEY]: record };
  }
  if (!response.usageMetadata) return;
  const keys = stateKeysFor(agentName);
  const usage = decodeUsageRecord(context.state.get<unknown>(keys.usage));
  const reported: UsageRecord = recordReportedUsage(usage, response.usageMetadata);
  const model = modelNameOf(context, response);
  // Partial (streamed) chunks repeat usage that the final response reports: bill that one only.
  const price = priceFor(model, prices);
  if (!response.partial && price === undefined) onUnpriced(model ?? 'unknown');
  const next = response.partial ? reported : billUsage(reported, response.usageMetadata, price);
  if (next !== usage) context.state.set(keys.usage, encodeRecord(next));
  if (next !== reported) recordUsageTelemetry(agentName, model, next, reported);
}
