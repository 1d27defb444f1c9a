/**
 * Whether a masking for cost pays for the cache it breaks. Each later call
 * re-reads the request before the in-flight turn: from the provider's cache
 * at `cachedPriceRatio` of the full price, or whole at the full price when
 * the request is under the shortest prefix the provider caches. Masking makes
 * that read shorter; in exchange, the request from the first placeholder on
 * (`rewritten` tokens) no longer starts like the previous one and is billed
 * once at the full price instead of the cached one. So it pays when
 *
 *   (read(before) − read(after)) × calls ≥ (1 − cachedPriceRatio) × rewritten
 *
 * over the calls expected to read the masked span again (expectedRereads),
 * where read(n) is `cachedPriceRatio × n`, or `n` under the cacheable minimum
 * (and a request under it has no cache to break). The derivation and the
 * measured effect are in docs/design.md ("Three remedies").
 */
import type { SlidingWindowPlan } from '../trigger/sliding-window.js';
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import type { ResolvedPolicy } from '../options.js';
import type { UsageRecord } from '../usage/stored-usage.js';

/** All tokens calibrated (real), since the provider's cacheable minimum is in real tokens. */
export interface MaskingTrade {
  /** Tokens of the request before and after the masking. */
  readonly before: number;
  readonly after: number;
  /** Tokens from the first placeholder up to the in-flight turn: sent once uncached instead of cached. */
  readonly rewritten: number;
  /** Calls expected to read the masked span again. */
  readonly calls: number;
  /** Cached over uncached price of the agent's model, in [0, 1]. */
  readonly cachedPriceRatio: number;
}

/** What re-reading `tokens` costs a call, in uncached tokens (also the room reduction's cost model). */
export function readCost(tokens: number, cachedPriceRatio: number): number {
  return tokens >= MIN_CACHED_PREFIX_TOKENS ? cachedPriceRatio * tokens : tokens;
}

/**
 * Above the cacheable minimum by less than this factor, the request after a masking may be under it as the provider
 * counts (the estimate is an estimate): the masking must pay either way (the fifty-fourth outside trial: a masking to
 * an estimated 2,1xx tokens sent 2,018, and the next call had no cache).
 */
const NEAR_MINIMUM = 1.1;

export function maskingPays(trade: MaskingTrade): boolean {
  if (trade.after >= trade.before) return false;
  const cached = trade.after >= MIN_CACHED_PREFIX_TOKENS;
  const near = cached && trade.after < MIN_CACHED_PREFIX_TOKENS * NEAR_MINIMUM;
  return paysWith(trade, cached) && (!near || paysWith(trade, false));
}

/** Whether the masking pays when the request after it is (`afterCached`) or is not cacheable. */
function paysWith(trade: MaskingTrade, afterCached: boolean): boolean {
  const ratio = trade.cachedPriceRatio;
  const afterRead = afterCached ? ratio * trade.after : trade.after;
  const savedPerCall = readCost(trade.before, ratio) - afterRead;
  const rewrite = afterCached ? (1 - ratio) * trade.rewritten : 0;
  return savedPerCall > 0 && savedPerCall * trade.calls >= rewrite;
}

export interface RereadInput {
  readonly usage: Pick<UsageRecord, 'modelCalls' | 'invocations' | 'averageTurnTokens'>;
  /** Calibrated tokens at which the agent's strategy reduces for room, and of the masked request. */
  readonly threshold: number;
  readonly calibratedAfter: number;
  /** Turns until a scheduled compaction summarizes the masked span (the sliding window), if any. */
  readonly turnsToSchedule?: number | undefined;
}

/**
 * Of the turns a session has had, the share it is taken to have still. How long a session has run is the best
 * guess of how long it goes on, but as a median: half the time it ends sooner, and a masking made a call or two
 * before the end pays its rewrite for nothing. Half as many turns again come with odds of 2 to 1 (a session `k`
 * turns old has at least `x` more with odds k / (k + x)). Not the expected count (under that rule it is larger):
 * a deliberate lean towards keeping the prefix, since a masking that does not pay back costs at once and one
 * left undone costs a little on each call. All of them, the rule until 2026-12-06, masked support dialogues of
 * the twenty-ninth outside trial's held-out runs at their last turns: 1.05x and 1.12x no guard's bill.
 * A tool loop's share is LOOP_CALLS_AHEAD_SHARE.
 */
const TURNS_AHEAD_SHARE = 1 / 2;

/**
 * Calls that will send the masked span: this one, and those after it until
 * the request reaches the threshold or a scheduled compaction (either elides
 * the span in any case), at the agent's calls per turn so far, and no more
 * than half as many turns again as the agent has had (TURNS_AHEAD_SHARE: a
 * short session must not pay for savings it never reaches).
 */
export function expectedRereads(input: RereadInput): number {
  const { modelCalls, invocations, averageTurnTokens } = input.usage;
  const turns = Math.max(1, invocations);
  const callsPerTurn = Math.max(1, modelCalls) / turns;
  const turnsToThreshold =
    averageTurnTokens !== undefined && averageTurnTokens > 0
      ? Math.max(0, (input.threshold - input.calibratedAfter) / averageTurnTokens)
      : Number.POSITIVE_INFINITY;
  const turnsAhead = turns * TURNS_AHEAD_SHARE;
  const turnsLeft = Math.min(turnsToThreshold, input.turnsToSchedule ?? Number.POSITIVE_INFINITY, turnsAhead);
  return Math.max(1, turnsLeft * callsPerTurn);
}

/** An in-flight turn that has already called the model (a tool loop), as seen from its next call. */
interface LoopRereadInput {
  /** The agent's model calls so far in this turn, before this one. */
  readonly callsInTurn: number;
  /** Calibrated tokens the turn has added per call so far (its contents after the user's message, over the calls). */
  readonly growthPerCall: number;
  /** Calibrated tokens at which the agent's strategy reduces for room, and of the masked request. */
  readonly threshold: number;
  readonly calibratedAfter: number;
}

/**
 * Of the calls a tool loop has made, the share it is taken to make still. How long a loop has run
 * is the best guess of how long it goes on, but a masking made as the loop ends pays its rewrite
 * for nothing: with that guess as a median (a loop `k` calls old makes at least `x` more with
 * odds k / (k + x)), a third of `k` more calls come with odds of 3 to 1. (Half, odds of 2 to 1,
 * masked the recorded coding runs of the simulator two or three calls before they ended: 1.02x
 * no guard at 32k; docs/design.md, "Three remedies".)
 */
const LOOP_CALLS_AHEAD_SHARE = 1 / 3;

/**
 * Calls that will send a span masked inside a tool loop: this one, and a third
 * as many again as the loop has made so far (LOOP_CALLS_AHEAD_SHARE), but no
 * more than the calls until the masked request grows to the threshold at the
 * loop's growth per call, where a reduction for room elides the span anyway.
 * Later turns are not counted: the guess errs towards keeping the prefix.
 */
export function expectedLoopRereads(input: LoopRereadInput): number {
  const callsToThreshold =
    input.growthPerCall > 0
      ? Math.max(0, (input.threshold - input.calibratedAfter) / input.growthPerCall)
      : Number.POSITIVE_INFINITY;
  return 1 + Math.max(0, Math.min(input.callsInTurn * LOOP_CALLS_AHEAD_SHARE, callsToThreshold));
}

interface ElisionInput {
  readonly policy: Pick<ResolvedPolicy, 'invocationThreshold' | 'overlapSize' | 'maxCompactions'>;
  readonly usage: Pick<UsageRecord, 'compactions'>;
  /** Calibrated threshold of the budget. */
  readonly threshold: number;
  /** The sliding window's plan on this call (decide-reason), absent for the threshold strategy. */
  readonly sliding: Pick<SlidingWindowPlan, 'completedTurns'> | undefined;
  /** Calibrated tokens at which the sliding window compacts for safety. */
  readonly safetyLine: number;
}

/**
 * Where the agent's strategy elides a masked span anyway: the threshold; for
 * the sliding window, also its safety line and, while it still compacts on
 * schedule, the turns until the schedule summarizes the completed turns.
 */
export function elisionLimits(input: ElisionInput): Pick<RereadInput, 'threshold' | 'turnsToSchedule'> {
  const { sliding, policy } = input;
  if (!sliding) return { threshold: input.threshold };
  const scheduled = input.usage.compactions < policy.maxCompactions;
  const turnsToSchedule = policy.invocationThreshold + policy.overlapSize - sliding.completedTurns;
  return {
    threshold: Math.min(input.threshold, input.safetyLine),
    ...(scheduled ? { turnsToSchedule: Math.max(0, turnsToSchedule) } : {}),
  };
}
