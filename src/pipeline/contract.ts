/**
 * The pipeline's contract with the ADK shell: the plain input the shell reads from a request and
 * its session, and the one result it applies, the whole change to the agent's state included.
 */
import type { Content } from '@google/genai';
import type { Budget } from '../budget/compute-budget.js';
import type { SummarizeFn } from '../summary/summarizer.js';
import type { TokenMemo } from '../estimate/estimate-request.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { InteractionsCall } from '../interactions/interactions-mode.js';
import type { MaskRecord } from '../masking/mask-record.js';
import type { PlaceholderMemo } from '../masking/placeholder-cache.js';
import type { ResolvedPolicy } from '../options.js';
import type { PreparationRequest } from '../preparation/plan.js';
import type { PreparedHandle } from '../preparation/prepared-summary.js';
import type { CallCounts } from '../records/call-record.js';
import type { FingerprintAt } from '../state/watermark.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { WindowOrigin } from '../usage/agent-usage-figures.js';
import type { UsageRecord } from '../usage/stored-usage.js';
import type { CompactionOutcome, SummarizerReport } from './compaction-outcome.js';
import type { ApplicationAnswer } from './unseen-answer.js';
import type { PendingCall } from '../summary/awaited-calls.js';
import type { BudgetLine } from '../budget/budget-line.js';

export interface GuardRequestInput {
  readonly contents: readonly Content[];
  /** Fingerprints of `contents`, possibly from a cache (used for the split's new anchor). */
  readonly fingerprints: readonly string[];
  /** The estimator's framing of each content, measured with it (estimate/content-measure-cache.ts); else worked out per call. */
  readonly framing?: readonly number[] | undefined;
  /** Fresh fingerprint of one content, for validating a stored watermark. */
  readonly fingerprintAt: FingerprintAt;
  readonly tokens: readonly number[];
  /** Tokens of the system instruction and tool declarations. */
  readonly fixedTokens: number;
  /** Of `fixedTokens`, the estimator's own framing (calibration learns net of it). @default 0 */
  readonly fixedFramingTokens?: number | undefined;
  readonly summary: SummaryRecord | undefined;
  /**
   * True when `summary` is the one a call queued before this one made (not yet in this call's
   * state): it is written to state again so this call's step stores it too.
   */
  readonly summaryShared?: boolean | undefined;
  /**
   * The request is ADK's view of a late long-running answer: the history up to the function call and its response
   * only (adk/runtime/late-response-view.ts). A stored summary whose watermark is past the call is applied up to it
   * and stays stored, and this call writes no summary or mask: what it could write is made for a part of the history.
   */
  readonly lateResponseView?: boolean | undefined;
  /**
   * Index of the invocation's own user message when another turn of the session runs at the same time
   * (adk/runtime/own-request.ts): a compaction keeps it, in place of the latest message, and a stored summary that
   * covers it without keeping it is applied up to it on this call. Absent otherwise.
   */
  readonly ownRequestAt?: number | undefined;
  /**
   * The function responses the application sent in this session (adk/runtime/application-answers.ts):
   * a stored summary over one it never read is applied up to its call (pipeline/unseen-answer.ts).
   */
  readonly applicationAnswers?: readonly ApplicationAnswer[] | undefined;
  /**
   * The calls still awaiting the application's answer (adk/runtime/unanswered-calls.ts): a summary lists those it covers
   * while they are pending (summary/awaited-calls.ts). Absent: a stored summary lists every call it covered.
   */
  readonly pendingCalls?: readonly PendingCall[] | undefined;
  /** A compaction the application asked for (`requestCompaction`): it summarizes, masking alone would not do; its mark is cleared. */
  readonly manual?: boolean | undefined;
  /** The stored mask watermark (see masking/mask-observations.ts). */
  readonly mask?: MaskRecord | undefined;
  /** Token counts of placeholders by their text, kept across calls by the shell (content-independent figures). */
  readonly maskedTokenMemo?: TokenMemo | undefined;
  /** This session and agent's placeholders from earlier calls (masking/placeholder-cache.ts), kept by the shell. */
  readonly placeholders?: PlaceholderMemo | undefined;
  readonly usage: UsageRecord;
  readonly policy: ResolvedPolicy;
  readonly window: number;
  /** Where `window` comes from, kept in the usage record for `status()`. */
  readonly windowOrigin?: WindowOrigin | undefined;
  /** The invocation (user turn) of this call, for the usage record's turn accounting. @default '' */
  readonly invocationId?: string | undefined;
  /** `config.maxOutputTokens` of the request, if set. */
  readonly maxOutputTokens?: number | undefined;
  readonly summarizerWindow: number;
  readonly tokenizer: Tokenizer;
  /** Pinned context, carried verbatim first in every request and counted in the budget. */
  readonly pinned?: Content | undefined;
  /** Name of the recall tool when the agent has it; the summary then tells the model how to search. */
  readonly recallToolName?: string | undefined;
  /**
   * True when the summarizer is the agent's own model (the default): a summary is then asked as a
   * continuation of the agent's request, whose prefix the provider has cached (summary/summary-from-request.ts).
   */
  readonly summarizerReadsRequest?: boolean | undefined;
  /**
   * Heuristic tokens of the recall tool's declaration when the guard would add it only if this call
   * masks or summarizes (recall/declaration.ts: `recallDue`); absent when it is sent already or is the agent's own.
   */
  readonly recallDeclarationTokens?: number | undefined;
  /** Runs the summarizer (with timeout and cap); absent means "always use the fallback". */
  readonly summarize?: SummarizeFn | undefined;
  readonly now: number;
  /**
   * The shell allows a session's first message to be held to the hard limit by the estimate alone
   * (fit-request.ts `messageFactor`): a rejection of it would be retried with it cut. @default false
   */
  readonly firstMessageOnEstimate?: boolean | undefined;
  /**
   * A rejection of this call's request is sure to be retried in the call: no plugin registered after the guard and
   * no callback of the agent's could edit it (adk/hooks/history-editors.ts). A masking for room may then wait past
   * the threshold (masking/masking-can-wait.ts) with the retry as its backstop. @default false
   */
  readonly rejectionRetried?: boolean | undefined;
  /** A summary prepared in the background for this session and agent (background compaction), if any. */
  readonly prepared?: PreparedHandle | undefined;
  /**
   * Set when the request ends with the budget line (`budgetLine` on, not continuing an interaction): its
   * reserve is in `fixedTokens`; `offloaded` when a tool result of the agent was cut (and stored whole);
   * `statusTool` false when the request does not declare `context_status` (@default true).
   */
  readonly budgetLine?:
    | {
        readonly offloaded: boolean;
        readonly statusTool?: boolean | undefined;
        /** The pin tool the request declares (`pinContextTool`), which the line names when a compaction is near. */
        readonly pinTool?: string | undefined;
      }
    | undefined;
  /** Cached over uncached price of the agent's model (masking for cost weighs the cache it breaks). @default DEFAULT_CACHED_PRICE_RATIO */
  readonly cachedPriceRatio?: number | undefined;
  /** Output over uncached input price of the agent's model (what a summary's output costs in a reduction's trade). @default DEFAULT_OUTPUT_PRICE_RATIO */
  readonly outputPriceRatio?: number | undefined;
  /** Set when the call goes through Gemini's Interactions API (interactions/interactions-mode.ts); absent otherwise. */
  readonly interactions?: InteractionsCall | undefined;
}

/** What one call writes to the agent's session state: the shell writes it as it is. */
export interface StateChange {
  /** The summary to store; `null` clears a stored one that no longer applies; absent leaves it. */
  readonly summary?: SummaryRecord | null | undefined;
  /** The mask watermark to store; `null` clears one that no longer matches the history; absent leaves it. */
  readonly mask?: MaskRecord | null | undefined;
  /** The usage record after this call: counters, calibration inputs, turns, window and its source. */
  readonly usage: UsageRecord;
  /** True when the application's compaction request was served: its mark is cleared. */
  readonly compactionRequestServed: boolean;
}

/** How a masking moved the mask watermark on this call. */
export interface MaskingStep {
  readonly upTo: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** `'room'` when a compaction was due, `'cost'` for stale tool output with nothing due. */
  readonly cause: 'room' | 'cost';
}

export interface GuardRequestResult {
  /** Contents to send, or `undefined` to leave the request as ADK built it. */
  readonly contents: Content[] | undefined;
  /** The whole change to the agent's state. */
  readonly state: StateChange;
  /** This call's own counts, carried on its response or error event (records/call-record.ts). */
  readonly counts: CallCounts;
  /** The summary this call made, if it made one (also in `state.summary`). */
  readonly newSummary?: SummaryRecord | undefined;
  /** Why a stored summary was not applied (watermark missing); `state.summary` clears it. */
  readonly summaryDiscarded?: string | undefined;
  /** How a stored summary was applied to ADK's view of a late long-running answer (up to the call, or not); it stays stored. */
  readonly summaryHeld?: string | undefined;
  /** Set when this call moved the mask watermark. */
  readonly masking?: MaskingStep | undefined;
  readonly compaction?: CompactionOutcome | undefined;
  readonly budget: Budget;
  /** Heuristic and calibrated estimate of the request as it will be sent. */
  readonly estimate: number;
  readonly calibrated: number;
  /** Set when the request is sent over the hard limit (counted on every call). */
  readonly overLimit?: string | undefined;
  /** True when `overLimit` has a cause not warned about before (window or fixed part changed); the shell logs it then. */
  readonly overLimitNewCause?: boolean | undefined;
  /**
   * Set when the user's message is sent whole on the estimate alone, before any real count, though the default
   * correction puts the request over the hard limit (fit-request.ts `messageFactor`); the shell logs it at info.
   */
  readonly sentWhole?: string | undefined;
  /**
   * Set on a compaction when the system instruction, tools and pins leave under the threshold less room than a turn
   * adds (budget/crowded-room.ts); the shell warns once per agent and window.
   */
  readonly crowdedRoom?: string | undefined;
  /** Set when the user's current message itself was cut head and tail to fit (figures only); the shell logs it at info. */
  readonly messageCut?: string | undefined;
  /** Set when parts were head+tail truncated to fit. */
  readonly shrunk: boolean;
  /** Set when parts other than the user's current message were cut to fit; the shell logs it at info. */
  readonly partsCut?: boolean | undefined;
  /** Why a new summary was not kept (it would not make the request smaller), figures only; the shell logs it. */
  readonly compactionDiscarded?: string | undefined;
  /** The summarizer's figures of a summary made in this call and not kept: the provider billed it all the same. */
  readonly discardedSummarizer?: SummarizerReport | undefined;
  /** A summary to prepare in the background (nothing is due yet, the threshold is near). */
  readonly preparation?: PreparationRequest | undefined;
  /** Why the prepared summary of the input may not be applied any more: the shell drops it. */
  readonly preparedDropped?: string | undefined;
  /** Interactions mode: the request starts a fresh server-side chain (the shell clears `previousInteractionId`). */
  readonly freshChain?: boolean | undefined;
  /** The line the shell appends as the request's last content (pipeline/budget-line-step.ts), when on. */
  readonly budgetLine?: BudgetLine | undefined;
}

/** The decision before its state change is assembled (pipeline/state-change.ts). */
export interface Decision extends Omit<
  GuardRequestResult,
  'state' | 'counts' | 'newSummary' | 'summaryDiscarded' | 'preparedDropped' | 'budgetLine'
> {
  /** The usage record after the call's counters, before turn accounting and the window's source. */
  readonly usage: UsageRecord;
  readonly newSummary?: SummaryRecord | undefined;
  readonly summaryDiscarded?: string | undefined;
  /** The mask watermark to store, `null` to clear, absent to leave. */
  readonly mask?: MaskRecord | null | undefined;
  /** In ADK's view of a late answer: the stored summary and mask cut at its function call, the only records written there. */
  readonly cutAtCall?: { readonly summary?: SummaryRecord | undefined; readonly mask?: MaskRecord | null | undefined };
}
