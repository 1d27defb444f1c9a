/**
 * OpenTelemetry for the bill: every model call's prompt tokens (split into
 * cached and uncached), output tokens and estimated cost, and the summarizer's
 * calls apart, as counters next to the compaction metrics of
 * telemetry/guard-metrics.ts. No-ops without an SDK.
 */
import type { Attributes } from '@opentelemetry/api';
import type { CallBill } from '../cost/bill-usage.js';
import type { SummarizerBill } from '../cost/bill-summary.js';
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
  summarizerCalls: {
    kind: 'counter',
    name: 'gen_ai.context_guard.summarizer.calls',
    description:
      'Summarizer calls (in a compaction, or in the background), by whether their cost is known (context_guard.priced)',
  },
  summarizerTokens: {
    kind: 'counter',
    name: 'gen_ai.context_guard.summarizer.tokens',
    unit: '{token}',
    description: "Tokens billed by the summarizer's calls, by type (input, cached_input, output)",
  },
  summarizerCost: {
    kind: 'counter',
    name: 'gen_ai.context_guard.summarizer.cost',
    unit: 'USD',
    description: "Estimated cost of the summarizer's calls at the price table",
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

/**
 * Records one summary's summarizer calls apart from the agent's calls (the `usage.*` counters leave it out):
 * its tokens by type, its cost when known, and the call, priced or not.
 */
export function recordSummarizerTelemetry(
  agentName: string,
  summarizer: string | undefined,
  bill: SummarizerBill,
): void {
  const attributes: Attributes = {
    'gen_ai.agent.name': agentName,
    ...(summarizer ? { 'gen_ai.request.model': summarizer } : {}),
  };
  const { summarizerCalls, summarizerTokens, summarizerCost } = meters();
  summarizerCalls.add(bill.calls, { ...attributes, 'context_guard.priced': bill.costUsd !== undefined });
  summarizerTokens.add(bill.promptTokens - bill.cachedPromptTokens, { ...attributes, 'gen_ai.token.type': 'input' });
  summarizerTokens.add(bill.cachedPromptTokens, { ...attributes, 'gen_ai.token.type': 'cached_input' });
  summarizerTokens.add(bill.outputTokens, { ...attributes, 'gen_ai.token.type': 'output' });
  if (bill.costUsd !== undefined && bill.costUsd > 0) summarizerCost.add(bill.costUsd, attributes);
}
