/**
 * How provider feedback updates the usage record: real counts from a
 * response's `usageMetadata`, and the size stated in a "prompt too long"
 * rejection. Pure functions; the plugin persists the result.
 */
import { clampCorrection, MAX_CORRECTION } from '../estimate/calibration.js';
import { overflowInOwnWords, parseOverflowError } from '../estimate/overflow-error.js';
import { plausibleTokenCount } from '../state/codec.js';
import { normalizeModelName } from '../estimate/model-registry.js';
import type { ReportedUsage } from './reported-usage.js';
import { type UsageRecord } from './stored-usage.js';
import { recordFailover } from './failover.js';
import { recordRejectedSize } from './rejected-bound.js';
import { countPlateau } from './count-plateau.js';
import {
  acceptedIn,
  plausibleWindow,
  recordStatedWindow,
  statedSizeConsistent,
  windowFloor,
  type AcceptedSize,
} from './learned-window.js';

function plausibleCount(value: unknown): number | undefined {
  return plausibleTokenCount(value, 1);
}

/** Past this many times a window the guard knows (set, or from the registry), an accepted request's count is wrong. */
const IMPLAUSIBLE_WINDOW_MULTIPLE = 2;

/**
 * The prompt count reported for an accepted request when it is beyond any window the guard knows for the model and
 * beyond any correction of what was sent: a provider or proxy that reports 80,000 or 99,999,999 tokens on an 8k window
 * made the guard compact on 11 of 12 turns, saying nothing (the thirty-third outside trial). A count within the
 * correction's range of the estimate is believed whatever the window (a `contextWindow` set below the model's, to
 * spend less, sees counts over it when the estimate runs low: review 29), and so is any count on a window the guard
 * only assumed (`default`) or learned, which may be smaller than the model's.
 */
export function countBeyondWindow(usage: UsageRecord, reported: ReportedUsage | undefined): number | undefined {
  const prompt = plausibleCount(reported?.promptTokenCount);
  const ceiling = believedCountCeiling(usage);
  return prompt !== undefined && ceiling !== undefined && prompt > ceiling ? prompt : undefined;
}

/** The largest prompt count believed for the request `usage` last sent (countBeyondWindow); undefined: any is. */
function believedCountCeiling(
  usage: Pick<UsageRecord, 'windowSource' | 'window' | 'sentEstimate'>,
): number | undefined {
  const known = usage.windowSource === 'option' || usage.windowSource === 'registry';
  if (!known || usage.window === undefined || usage.sentEstimate === undefined) return undefined;
  return Math.max(IMPLAUSIBLE_WINDOW_MULTIPLE * usage.window, MAX_CORRECTION * usage.sentEstimate);
}

/**
 * Records a response's real prompt count against the estimate of the request
 * it answered. Missing, partial or nonsensical values leave the record as is, and so does a count beyond the
 * known window (`countBeyondWindow`: the shell warns).
 */
export function recordReportedUsage(
  usage: UsageRecord,
  reported: ReportedUsage | undefined,
  model?: string,
): UsageRecord {
  const prompt =
    countBeyondWindow(usage, reported) === undefined ? plausibleCount(reported?.promptTokenCount) : undefined;
  const output = plausibleCount(reported?.candidatesTokenCount);
  if (prompt === undefined || usage.sentEstimate === undefined || isFreshStart(usage)) {
    return output === undefined ? usage : { ...usage, outputTokens: output };
  }
  // A count that has not grown on a larger request: the pair and the correction it taught are kept (usage/count-plateau.ts).
  // Another model's count (the agent's model changed) is paired whatever it is.
  const sameModel = usage.correctionModel === undefined || usage.correctionModel === correctionModelOf(model);
  const standing = sameModel ? countPlateau(usage, prompt) : 'grown';
  if (standing !== 'grown') {
    const samePromptReports = (usage.samePromptReports ?? 0) + (standing === 'plateau' ? 1 : 0) || undefined;
    return { ...usage, samePromptReports, ...(output === undefined ? {} : { outputTokens: output }) };
  }
  return {
    ...usage,
    samePromptReports: undefined,
    correctionFromSummary: undefined,
    countBeforeReduction: undefined,
    estimateBeforeReduction: undefined,
    realPromptTokens: prompt,
    lastEstimate: usage.sentEstimate,
    lastFraming: usage.sentFraming,
    learnedCorrection: clampCorrection(prompt / usage.sentEstimate),
    correctionModel: correctionModelOf(model),
    ...(output === undefined ? {} : { outputTokens: output }),
  };
}

/**
 * Below this share of the paired request's estimate, an answered request is a fresh start rather than
 * the history it continues (a Workflow node's LlmAgent sends only the current turn, ADK's
 * `includeContents: 'none'`: docs/design.md, "Workflow roots").
 */
const FRESH_START_SHARE = 0.5;

/** The model a correction is learned for, as another agent's model is compared with it. */
function correctionModelOf(model: string | undefined): string | undefined {
  return model === undefined ? undefined : normalizeModelName(model);
}

/**
 * A fresh start's pair would teach the ratio of a request that is mostly instruction and tool
 * declarations, and charge the content the next call appends to it at that ratio (1.7 times the real
 * count on the recorded trial): the pair of the larger request, whose content is like what comes next,
 * is kept. A compaction or masking clears the pair first, so a shrink the guard made is not one.
 */
function isFreshStart(usage: UsageRecord): boolean {
  const { sentEstimate, lastEstimate, realPromptTokens } = usage;
  if (sentEstimate === undefined || lastEstimate === undefined || realPromptTokens === undefined) return false;
  return sentEstimate < lastEstimate * FRESH_START_SHARE;
}

/** Why a maximum a rejection stated was not learned. */
export type RefusedStatement = 'not-over' | 'size-inconsistent' | 'below-accepted';

interface RejectionOutcome {
  readonly usage: UsageRecord;
  /** The maximum learned as `model`'s window, when the statement earned it. */
  readonly learned?: number | undefined;
  /** Set when the message stated a maximum that was not believed. */
  readonly refused?: RefusedStatement | undefined;
  /** The session's bound on `model`'s window from the rejected request's measure, when it lowered it. */
  readonly bounded?: number | undefined;
  /**
   * The message states a plausible maximum beside a size that cannot be the request sent, or is not over that
   * maximum: a statement about some other request, or none (a spurious rejection). Sent again even unchanged.
   */
  readonly notAbout?: boolean | undefined;
  /** The maximum it states is a smaller member's of a routed model that accepted more: a failover to it refused. */
  readonly failover?: number | undefined;
}

/**
 * Records a "prompt too long" rejection: the next call compacts whatever the
 * estimate says; when the message states the real size (Gemini's does), that
 * size calibrates the next estimate even if usage is never reported; when it
 * states the maximum, that maximum becomes `model`'s window, if it was earned
 * (see usage/learned-window.ts): a stated size consistent with what was sent,
 * over the maximum, and the maximum not below any request `model` accepted in
 * the session or (`processAccepted`) in this process.
 */
export function rejectionOutcome(
  usage: UsageRecord,
  message: string,
  model?: string,
  processAccepted?: AcceptedSize,
  measure?: number,
  isMemberWindow?: (limit: number) => boolean,
): RejectionOutcome {
  const parsed = parseOverflowError(message);
  if (!parsed) return { usage };
  // A routed model's smaller member refusing at its known window, where the window in force was set above it: a
  // failover went to it (an error of the large one); its maximum is not this agent's window (review 46: on the
  // first request over the small model's window, before the router had accepted more).
  const member = parsed.limit !== undefined && isMemberWindow?.(parsed.limit) === true;
  const setAbove = member && setAboveIt(usage, parsed.limit ?? 0);
  const outcome = statedOutcome(usage, setAbove ? { ...parsed, limit: undefined } : parsed, model, processAccepted);
  // The request was larger than the window, whatever figures the message gives (usage/rejected-bound.ts); only
  // when the provider's own words say so: a text that merely mentions a too-long prompt may quote a user.
  // A maximum the message states and the guard believes is the window: the guard's measure, lower than the real
  // size it states whenever the request was underestimated, would only bound it too low.
  // A plausible maximum stated beside a size that cannot be this request (or is not over it) is a statement
  // about some other request, or none: bounding by this one's measure would shrink the session's window for
  // nothing (the eighth outside trial: a spurious 400 on a 2,373-token request, and a 16,000 window became 2,373).
  // The rejected size is the guard's own measure: bounded by the guard's own estimates of what was accepted (review 18).
  const floor = windowFloor([acceptedIn(usage, model), processAccepted], 1);
  const stated = plausibleWindow(parsed.limit ?? 0) !== undefined;
  const believed = outcome.refused === undefined && stated;
  // A prompt under the maximum with the completion it asked for over it (OpenAI's, vLLM's words) is about it.
  const overWithCompletion = (parsed.requestedTokens ?? 0) > (parsed.limit ?? Infinity);
  const notAbout =
    stated && (outcome.refused === 'size-inconsistent' || (outcome.refused === 'not-over' && !overWithCompletion));
  // A completion asked for that is alone over the maximum (max_tokens above the window): no prompt fits, and the
  // size sent says nothing of the window (review 9: bounded at 3,000, 2,000, then 1,200 tokens).
  const completion = (parsed.requestedTokens ?? 0) - (parsed.promptTokens ?? 0);
  const completionAlone = overWithCompletion && completion >= (parsed.limit ?? Infinity);
  // Or a routed model that accepted more, refusing at a smaller member's known window: a failover too, and the next
  // call goes to the large one again. Bounded so, the session's window fell below the large model's for good (the
  // fifty-first outside trial: 32,000 set, 12,266 learned from one 503).
  const failover = member && (setAbove || outcome.refused === 'below-accepted') ? parsed.limit : undefined;
  const bounds = !believed && !notAbout && !completionAlone && failover === undefined && overflowInOwnWords(message);
  const counted = failover === undefined ? outcome.usage : recordFailover(outcome.usage, model, failover);
  const next = bounds ? recordRejectedSize(counted, model, measure, floor) : counted;
  const bounded = next.rejectedTokens !== outcome.usage.rejectedTokens ? next.rejectedTokens : undefined;
  return {
    ...outcome,
    usage: next,
    ...(bounded === undefined ? {} : { bounded }),
    ...(notAbout ? { notAbout } : {}),
    ...(failover === undefined ? {} : { failover }),
  };
}

/** Whether the window in force was set (the options, the registry) above `limit`, not learned or guessed. */
function setAboveIt(usage: UsageRecord, limit: number): boolean {
  return (usage.window ?? 0) > limit && (usage.windowSource === 'option' || usage.windowSource === 'registry');
}

/** What the message states: its size calibrates, its maximum may become the window (see `rejectionOutcome`). */
function statedOutcome(
  usage: UsageRecord,
  parsed: { promptTokens?: number; limit?: number },
  model: string | undefined,
  processAccepted: AcceptedSize | undefined,
): RejectionOutcome {
  const stated = plausibleCount(parsed.promptTokens);
  const consistent = stated === undefined || statedSizeConsistent(stated, usage.sentEstimate);
  const real = consistent ? stated : undefined;
  const calibrated =
    real !== undefined && usage.sentEstimate !== undefined
      ? {
          realPromptTokens: real,
          lastEstimate: usage.sentEstimate,
          lastFraming: usage.sentFraming,
          learnedCorrection: clampCorrection(real / usage.sentEstimate),
          correctionModel: correctionModelOf(model),
        }
      : {};
  const rejected = { ...usage, ...calibrated, rejectedCalls: usage.rejectedCalls + 1, forceCompaction: true };
  const refused = refusal(parsed, consistent, usage, model, processAccepted);
  if (parsed.limit === undefined || refused) return { usage: rejected, refused };
  const next = recordStatedWindow(rejected, model, parsed.limit);
  return { usage: next, learned: next.learnedWindow !== usage.learnedWindow ? next.learnedWindow : undefined };
}

function refusal(
  parsed: { promptTokens?: number; limit?: number },
  consistent: boolean,
  usage: UsageRecord,
  model: string | undefined,
  processAccepted: AcceptedSize | undefined,
): RefusedStatement | undefined {
  const { promptTokens, limit } = parsed;
  if (limit === undefined) return undefined;
  // A maximum is the window only when the message says the request went over it.
  if (promptTokens !== undefined && promptTokens <= limit) return 'not-over';
  if (!consistent) return 'size-inconsistent';
  const ratio = promptTokens !== undefined && usage.sentEstimate ? promptTokens / usage.sentEstimate : 1;
  if (plausibleWindow(limit) !== undefined && limit < windowFloor([acceptedIn(usage, model), processAccepted], ratio))
    return 'below-accepted';
  return undefined;
}

/**
 * A "prompt too long" rejection of the guard's own summary request to the agent's model (same name):
 * learned as a rejection of the agent's call is (`rejectionOutcome`: the stated maximum, earned, becomes
 * `model`'s window; a consistent stated size calibrates), with `requestEstimate`, the summary request's
 * heuristic tokens, as the size sent. It is not a rejected call of the agent's (`rejectedCalls`), and
 * forces no compaction: the call it was made for compacted with the mechanical summary.
 */
export function summaryRejectionOutcome(
  usage: UsageRecord,
  message: string,
  requestEstimate: number,
  model: string | undefined,
  processAccepted: AcceptedSize | undefined,
  measure: number = requestEstimate,
): RejectionOutcome {
  const sent = { ...usage, sentEstimate: requestEstimate, sentFraming: undefined };
  // A rejection that states no maximum bounds the window by the request's size (`measure`, calibrated like the
  // window it bounds), as an agent's call does.
  const outcome = rejectionOutcome(sent, message, model, processAccepted, measure);
  // The calibration pair stays the agent's: only the factor (and the window) carry over from the summary request.
  const { sentEstimate, sentFraming, realPromptTokens, lastEstimate, lastFraming, rejectedCalls, forceCompaction } =
    usage;
  const kept = {
    sentEstimate,
    sentFraming,
    realPromptTokens,
    lastEstimate,
    lastFraming,
    rejectedCalls,
    forceCompaction,
  };
  return { ...outcome, usage: { ...outcome.usage, ...kept } };
}

/** `rejectionOutcome`'s usage record. */
export function recordRejection(
  usage: UsageRecord,
  message: string,
  model?: string,
  processAccepted?: AcceptedSize,
): UsageRecord {
  return rejectionOutcome(usage, message, model, processAccepted).usage;
}
