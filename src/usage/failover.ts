/**
 * A routed model's router that stays on its smaller member (a circuit breaker after one error of the large one).
 * One refusal at the member's known window, below what the router accepted, is a failover's and teaches nothing
 * (usage/provider-feedback.ts, the fifty-first outside trial). Counted in the session, a second one with no larger
 * request accepted between says the router stays there: the session's window is held to the member's from then on,
 * whatever the router accepted before (review 46: refused and retried every few turns for good, six in thirty).
 * A request larger than that window accepted since (the router back on the large member) clears the count; the hold
 * lasts a number of calls, after which one larger request probes the router.
 */
import { modelKey } from '../estimate/model-registry.js';
import type { UsageRecord } from './stored-usage.js';

/** Failover-shaped refusals from which the router is taken to stay on the smaller member. */
const STICKY_FAILOVERS = 2;
/** Model calls a hold lasts: then one request above it probes whether the router is back (review 49). */
const HOLD_CALLS = 20;

/** `usage` after a refusal of `model` at its member's known window `limit` that was taken for a failover's. */
export function recordFailover(usage: UsageRecord, model: string | undefined, limit: number): UsageRecord {
  const name = modelKey(model ?? '');
  const again = usage.failoverModel === name && usage.failoverWindow === limit;
  const failovers = (again ? (usage.failovers ?? 0) : 0) + 1;
  const failoverAt = failovers >= STICKY_FAILOVERS ? usage.modelCalls : usage.failoverAt;
  return { ...usage, failoverWindow: limit, failoverModel: name, failovers, failoverAt };
}

/** Whether this refusal, recorded in `usage`, began a hold (the message says so). */
export function beganHold(usage: UsageRecord): boolean {
  return (usage.failovers ?? 0) >= STICKY_FAILOVERS && usage.failoverAt === usage.modelCalls;
}

/** `usage` after `model` accepted a request of `size` tokens: a size above the member's window clears the count. */
export function acceptedAfterFailover(usage: UsageRecord, size: number | undefined): UsageRecord {
  if (usage.failoverWindow === undefined || size === undefined || size <= usage.failoverWindow) return usage;
  const { failoverWindow: _window, failoverModel: _model, failovers: _count, failoverAt: _at, ...rest } = usage;
  return rest;
}

/**
 * The window the session is held to for `model` (its key), when it is a routed model whose router is taken to stay on
 * a smaller member, for `HOLD_CALLS` calls from the refusal that began the hold: a router back on its large member
 * then accepts the larger request and the count clears; one still on the small member refuses it, and the hold
 * begins again (at most one refusal every `HOLD_CALLS` calls, where each was refused every few turns).
 */
export function stickyFailoverWindow(usage: UsageRecord, model: string, routed: boolean): number | undefined {
  const sticky = routed && usage.failoverModel === model && (usage.failovers ?? 0) >= STICKY_FAILOVERS;
  const lasting = usage.modelCalls - (usage.failoverAt ?? 0) < HOLD_CALLS;
  return sticky && lasting ? usage.failoverWindow : undefined;
}
