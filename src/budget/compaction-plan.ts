/**
 * How one compaction shares the room a request has, in heuristic (uncalibrated)
 * tokens: the summary's cap, the durable facts' share, the tail kept verbatim
 * and the summarizer's prompt. Each ratio is named here once.
 */

/** Characters per token assumed when a token budget must become a character budget. */
const CHARS_PER_TOKEN = 3;
/** Tokens the continuation sentence and summary header take, roughly. */
export const SUMMARY_FRAMING_TOKENS = 96;
/** The smallest summary asked for, however little room there is. */
export const MIN_SUMMARY_TOKENS = 48;
/** The summary's share of the room the turn's message leaves (it must leave most of the room to the tail). */
const SUMMARY_SHARE_OF_ROOM = 0.25;
/** Durable facts get up to this share of the summary's size, on top of it. */
const FACT_SHARE_OF_SUMMARY = 0.5;
/**
 * The least room durable facts get, however small the summary: where the room leaves a summary of its smallest size,
 * the user's own words (the task, an order id) must still fit beside the summarizer's cut prose (the sixty-third
 * outside trial: 60 tool declarations over the threshold of an 8k window, the first request lost after turn 1).
 */
const MIN_FACT_CHARS = MIN_SUMMARY_TOKENS * CHARS_PER_TOKEN;
/** The summarizer's prompt is never bounded below this, even when its window is nearly full. */
export const MIN_SUMMARIZER_PROMPT_TOKENS = 256;
/**
 * Masking alone is enough when the masked request takes at most this share of the room, the
 * whole of it: a masking costs no model call and keeps every result recallable, so it need not
 * reach the summary's lower target. The share was chosen by measurement (docs/design.md).
 */
const MASKING_SHARE_OF_ROOM = 1;
/**
 * A summary prepared in the background is applied alone when it brings the contents this share
 * of the way from the threshold back to the target; otherwise the call summarizes further from it.
 */
const PREPARED_SHARE_OF_GAP = 0.5;
/** Durable facts one summary carries at most. */
export const MAX_DURABLE_FACTS = 60;

export interface CompactionPlanInput {
  /** The calibrated threshold, and the correction factor that maps heuristic tokens to it. */
  readonly threshold: number;
  readonly correction: number;
  /** Heuristic tokens of the system instruction, tools and pins. */
  readonly fixedTokens: number;
  /** Heuristic tokens of the turn's in-flight message, which always stays verbatim. */
  readonly inFlightTokens: number;
  readonly summaryMaxTokens: number;
  readonly compactTargetRatio: number;
  readonly summarizerWindow: number;
  readonly summarizerInputRatio: number;
}

export interface CompactionPlan {
  /** Heuristic tokens the contents may take under the threshold. */
  readonly room: number;
  /** What the contents should come down to: `compactTargetRatio` of the room. */
  readonly target: number;
  /** What a masking must bring the contents down to for no summary to be made (`MASKING_SHARE_OF_ROOM`). */
  readonly maskTarget: number;
  /** What a summary prepared in the background must bring the contents down to (`PREPARED_SHARE_OF_GAP`). */
  readonly preparedTarget: number;
  readonly summaryCap: number;
  readonly summaryMaxChars: number;
  readonly factChars: number;
  /**
   * The most characters of facts a summary carries over from the previous one (or keeps for being marked) when
   * `factChars` is smaller: the facts' share of the summary the room gives without the turn's message.
   */
  readonly factCharsCap: number;
  /** Tokens of contents a split may keep verbatim after the summary. */
  readonly tailBudget: number;
  /**
   * Tokens of contents a split may keep at most and still bring the request under the threshold: what an agent was
   * just handed is kept up to this, above `tailBudget` (split/select-split.ts).
   */
  readonly tailRoom: number;
  /** Bound on the summarizer's prompt. */
  readonly summarizerPromptTokens: number;
}

export function planCompaction(input: CompactionPlanInput): CompactionPlan {
  const { correction } = input;
  const room = Math.max(0, Math.floor(input.threshold / correction) - input.fixedTokens);
  const summaryRoom = Math.max(0, room - input.inFlightTokens);
  const summaryCap = summaryCapFor(summaryRoom, input.summaryMaxTokens);
  const target = Math.floor(room * input.compactTargetRatio);
  return {
    room,
    target,
    maskTarget: Math.floor(room * MASKING_SHARE_OF_ROOM),
    preparedTarget: room - Math.floor((room - target) * PREPARED_SHARE_OF_GAP),
    summaryCap,
    summaryMaxChars: summaryCap * CHARS_PER_TOKEN,
    factChars: factCharsOf(summaryCap),
    factCharsCap: factCharsOf(summaryCapFor(room, input.summaryMaxTokens)),
    tailBudget: Math.max(0, target - summaryReserve(summaryCap) - SUMMARY_FRAMING_TOKENS),
    tailRoom: Math.max(0, room - summaryReserve(summaryCap) - SUMMARY_FRAMING_TOKENS),
    summarizerPromptTokens: Math.max(
      MIN_SUMMARIZER_PROMPT_TOKENS,
      Math.floor((input.summarizerWindow * input.summarizerInputRatio) / correction) - summaryCap,
    ),
  };
}

function summaryCapFor(summaryRoom: number, summaryMaxTokens: number): number {
  return Math.max(MIN_SUMMARY_TOKENS, Math.min(summaryMaxTokens, Math.floor(summaryRoom * SUMMARY_SHARE_OF_ROOM)));
}

function factCharsOf(summaryCap: number): number {
  return Math.max(MIN_FACT_CHARS, Math.floor(summaryCap * CHARS_PER_TOKEN * FACT_SHARE_OF_SUMMARY));
}

/** What the tail sets aside for a summary of `summaryCap` tokens: the summary and its facts. */
function summaryReserve(summaryCap: number): number {
  return summaryCap + Math.ceil(factCharsOf(summaryCap) / CHARS_PER_TOKEN);
}
