/**
 * The figures an agent's usage record keeps in session state and its status reports under the
 * same names: the budget of the last call and the counters. Declared once, for both.
 */

/** Where an agent's window comes from: the model registry, the user's options, a provider's rejection, or the default. */
export type WindowOrigin = 'registry' | 'option' | 'learned' | 'default';

/** The budget of an agent's last call and its counters in a session (part of `AgentContextStatus`). */
export interface AgentUsageFigures {
  /** Context window of the last call, in tokens. */
  readonly window?: number | undefined;
  /** Where the window came from: the model registry, an option, a provider's rejection (learned), or the default. */
  readonly windowSource?: WindowOrigin | undefined;
  /**
   * Compaction threshold and hard limit of the last call, in tokens. In `status()`, once the provider counted a
   * request sent before any count (its threshold capped at `uncalibratedThresholdRatio`), the threshold the next
   * call is held to.
   */
  readonly threshold?: number | undefined;
  readonly hardLimit?: number | undefined;
  readonly modelCalls: number;
  /** Invocations (user turns) seen. */
  readonly invocations: number;
  readonly compactions: number;
  /** Maskings of old tool results (the mask watermark moved, no model call), for room or for cost: operations, each may replace several results. */
  readonly maskings: number;
  /** Summaries thrown away because they came out no smaller than what they would replace (their summarizer calls are billed). */
  readonly discardedCompactions: number;
  /**
   * Summaries prepared in the background (`prepareTurnsAhead`) and then not applied, because the history they were
   * built on changed under them (their summarizer calls are billed; an `info` line says why each one went).
   */
  readonly droppedPreparations: number;
  /** Requests the provider rejected as too long. */
  readonly rejectedCalls: number;
  /** Rejected requests compacted and sent again within the same model call (at most one retry per call). */
  readonly retriedCalls: number;
  /** Requests sent although they were still over the hard limit after every reduction. */
  readonly overLimitCalls: number;
  /** Requests that ended with the budget line (`budgetLine`), and the line's estimated tokens over them. */
  readonly budgetLines: number;
  readonly budgetLineTokens: number;
  /**
   * Estimated USD of the calls whose model has a price: the agent's own and its summarizer's
   * (`summarizerCostUsd` is that part). Undefined until a priced call was billed.
   */
  readonly costUsd?: number | undefined;
}
