/**
 * A routed model's router that stays on its smaller member (a circuit breaker after one error of the large one).
 * One refusal at the member's known window, below what the router accepted, is a failover's and teaches nothing
 * (usage/provider-feedback.ts, the fifty-first outside trial). Counted in the session, a second one with no larger
 * request accepted between says the router stays there: the session's window is held to the member's from then on,
 * whatever the router accepted before (review 46: refused and retried every few turns for good, six in thirty).
 * A request larger than that window accepted since (the router back on the large member) clears the count; held to
 * it, the session sends none larger, so it stays held: compactions cost less than a refusal a few turns.
 */
import { modelKey } from '../estimate/model-registry.js';
import type { UsageRecord } from './stored-usage.js';

/** Failover-shaped refusals from which the router is taken to stay on the smaller member. */
const STICKY_FAILOVERS = 2;

/** `usage` after a refusal of `model` at its member's known window `limit` that was taken for a failover's. */
export function recordFailover(usage: UsageRecord, model: string | undefined, limit: number): UsageRecord {
  const name = modelKey(model ?? '');
  const again = usage.failoverModel === name && usage.failoverWindow === limit;
  return { ...usage, failoverWindow: limit, failoverModel: name, failovers: (again ? (usage.failovers ?? 0) : 0) + 1 };
}

/** `usage` after `model` accepted a request of `size` tokens: a size above the member's window clears the count. */
export function acceptedAfterFailover(usage: UsageRecord, size: number | undefined): UsageRecord {
  if (usage.failoverWindow === undefined || size === undefined || size <= usage.failoverWindow) return usage;
  const { failoverWindow: _window, failoverModel: _model, failovers: _count, ...rest } = usage;
  return rest;
}

/** The window the session is held to for `model` (its key), when its router is taken to stay on a smaller member. */
export function stickyFailoverWindow(usage: UsageRecord, model: string): number | undefined {
  const sticky = usage.failoverModel === model && (usage.failovers ?? 0) >= STICKY_FAILOVERS;
  return sticky ? usage.failoverWindow : undefined;
}
