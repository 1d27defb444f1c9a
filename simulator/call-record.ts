/** One model call as the simulator saw it: what ADK built, what was sent, what the model said. */
export interface CallRecord {
  /** Index among the run's model calls. */
  readonly index: number;
  readonly agent: string;
  readonly turn: number;
  /** The agent's call number in the turn (0 = the call that answers the user's message). */
  readonly step: number;
  /** Ground-truth tokens of the request the model received. */
  readonly promptTokens: number;
  /** Rejected by the model as over its window. */
  readonly rejected: boolean;
  /** Prompt tokens the model served from its implicit cache (common prefix with the agent's previous request). */
  readonly cachedPromptTokens: number;
  /** Ground-truth tokens of the request as ADK built it (before any plugin). */
  readonly rawTokens: number;
  /** The same with tool results at the size the tools produced (before any truncation plugin). */
  readonly producedTokens: number;
  readonly appendedTokens: number;
  /** Ground-truth tokens of the request had this call not compacted (see CallObservation). */
  readonly viewTokens: number;
  readonly rawContents: number;
  readonly sentContents: number;
  /** A compaction happened for this call (the guard's, or ADK's compactor before it). */
  readonly compacted: boolean;
  /** The guard masked old tool results for this call (a reduction without a model call). */
  readonly masked: boolean;
  readonly watermarkBefore: number;
  readonly watermarkAfter: number;
  readonly fallbackSummary: boolean;
  readonly shrunkToolResults: number;
  readonly maxParallelResponses: number;
  /** The turn's user message, text and attachments, is in the request verbatim as one user content. */
  readonly requestIntact: boolean;
  readonly violations: readonly string[];
}

/** One summarizer call, from whichever summarizer served it (a ScriptedSummarizer, or the agents' own model). */
export interface SummaryCallRecord {
  /** Index of the model call during whose preparation it started (summary-waits.ts's clock). */
  readonly startedAt: number;
  /** Ground-truth prompt tokens. */
  readonly promptTokens: number;
  /** Prompt tokens the emulated cache served (the agent's prefix a summary request continues). */
  readonly cachedPromptTokens: number;
  readonly outputTokens: number;
  /** Rejected as over the summarizer's window: an overflow of its own. */
  readonly rejected: boolean;
  /** It gave no usable summary (rejected, failed, hung or empty). */
  readonly failed: boolean;
}
