/**
 * OpenTelemetry for the bill: every model call's prompt tokens (split into
 * cached and uncached), output tokens and estimated cost, as counters next to
 * the compaction metrics of guard-telemetry.ts. No-ops without an SDK.
 */
import type { Attributes } from '@opentelemetry/api';
import type { UsageRecord } from '../state/guard-state.js';
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

/** Records one call's tokens and cost: the difference between the usage records after and before it. */
export function recordUsageTelemetry(
  agentName: string,
  model: string | undefined,
  after: UsageRecord,
  before: UsageRecord,
): void {
  const attributes: Attributes = {
    'gen_ai.agent.name': agentName,
    ...(model ? { 'gen_ai.request.model': model } : {}),
  };
  const delta = (key: 'billedPromptTokens' | 'billedCachedPromptTokens' | 'billedOutputTokens' | 'costUsd'): number =>
    (after[key] ?? 0) - (before[key] ?? 0);
  const cached = delta('billedCachedPromptTokens');
  const { tokens, cost } = meters();
  tokens.add(delta('billedPromptTokens') - cached, { ...attributes, 'gen_ai.token.type': 'input' });
  tokens.add(cached, { ...attributes, 'gen_ai.token.type': 'cached_input' });
  tokens.add(delta('billedOutputTokens'), { ...attributes, 'gen_ai.token.type': 'output' });
  if ((after.costUsd ?? 0) > (before.costUsd ?? 0)) cost.add(delta('costUsd'), attributes);
}
