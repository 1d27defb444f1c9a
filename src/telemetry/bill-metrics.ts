/**
 * OpenTelemetry for the bill: every model call's prompt tokens (split into
 * cached and uncached), output tokens and estimated cost, as counters next to
 * the compaction metrics of telemetry/guard-metrics.ts. No-ops without an SDK.
 */
import type { Attributes } from '@opentelemetry/api';
import type { CallBill } from '../cost/bill-usage.js';
import { lazyInstruments } from './instruments.js';

const meters = lazyInstruments({
  tokens: {
    kind: 'counter',
    name: 'gen_ai.context_guard.usage.tokens',
    unit: '{token}',
    description: 'Tokens billed by the model, by type (input, cached_input, output)',
  },
  cost: {
    kind: 'counter',
    name: 'gen_ai.context_guard.usage.cost',
    unit: 'USD',
    description: 'Estimated cost of model calls at the price table',
  },
} as const);

/**
 * Records one call's tokens and cost: this call's own bill, added as it is. Never a difference of
 * running totals in state, which a concurrent turn of the session may have overwritten.
 */
export function recordUsageTelemetry(agentName: string, model: string | undefined, bill: CallBill): void {
  const attributes: Attributes = {
    'gen_ai.agent.name': agentName,
    ...(model ? { 'gen_ai.request.model': model } : {}),
  };
  const { tokens, cost } = meters();
  tokens.add(bill.promptTokens - bill.cachedPromptTokens, { ...attributes, 'gen_ai.token.type': 'input' });
  tokens.add(bill.cachedPromptTokens, { ...attributes, 'gen_ai.token.type': 'cached_input' });
  tokens.add(bill.outputTokens, { ...attributes, 'gen_ai.token.type': 'output' });
  if (bill.costUsd !== undefined && bill.costUsd > 0) cost.add(bill.costUsd, attributes);
}
