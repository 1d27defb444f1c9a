/**
 * The window an agent's usage record keeps: the budget of the last call and where its window came
 * from, the maximum a provider's rejection stated and the largest request the model accepted,
 * bounded as a provider's statement is (usage/learned-window.ts).
 */
import type { Budget } from '../budget/compute-budget.js';
import type { AgentUsageFigures, WindowOrigin } from './agent-usage-figures.js';
import { MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import type { FieldReader } from '../state/field-reader.js';

export interface UsageWindow extends Pick<AgentUsageFigures, 'window' | 'windowSource' | 'threshold' | 'hardLimit'> {
  /** The last call's threshold once a real count is seen, when it was capped for want of one (compute-budget.ts). */
  readonly calibratedThreshold?: number | undefined;
  /** The maximum a provider's rejection stated for `learnedWindowModel`: that model's window from then on. */
  readonly learnedWindow?: number | undefined;
  readonly learnedWindowModel?: string | undefined;
  /**
   * The largest request `acceptedModel` accepted in this session: the provider's real count when it reported one
   * (`acceptedTokens`) and the estimate of what was sent (`acceptedEstimate`). A stated maximum below it is not believed.
   */
  readonly acceptedTokens?: number | undefined;
  readonly acceptedEstimate?: number | undefined;
  readonly acceptedModel?: string | undefined;
  /**
   * The maximum a separate summarizer model (`summarizerWindowModel`) stated in a rejection of this session's
   * summary request: that model's window for this session's summaries, whatever other sessions learned.
   */
  readonly summarizerWindow?: number | undefined;
  readonly summarizerWindowModel?: string | undefined;
  /**
   * The smallest request `rejectedModel` rejected as too long in this session, by the guard's calibrated measure:
   * that model's window in this session is below it (usage/rejected-bound.ts).
   */
  readonly rejectedTokens?: number | undefined;
  readonly rejectedModel?: string | undefined;
  /**
   * The window a routed model's smaller member stated in this session's last failover-shaped refusals
   * (usage/provider-feedback.ts), for `failoverModel`, and how many came with no larger request accepted between:
   * from the second, the router is taken to stay on that member and the window is held to it (usage/failover.ts).
   */
  readonly failoverWindow?: number | undefined;
  readonly failoverModel?: string | undefined;
  readonly failovers?: number | undefined;
  /** The session's model calls when the hold began: it lasts a number of calls, then one request probes the router. */
  readonly failoverAt?: number | undefined;
}

/** The budget figures of a window no call has used yet: the next call states them. */
export const NO_BUDGET = { threshold: undefined, calibratedThreshold: undefined, hardLimit: undefined } as const;

/** The smallest window a provider's statement or a record may name: the smallest an option may name. */
export const MIN_PLAUSIBLE_WINDOW = 1_024;

/**
 * A stated size of the rejected request more than this many times larger or smaller than the estimate of what was
 * sent is not about that request. Wider than the correction's clamp (1-5): a provider counting characters / 4 is
 * a quarter of the estimate on CJK text, and a ratio drifts.
 */
export const STATED_SIZE_RATIO = 8;

const WINDOW_ORIGINS: readonly WindowOrigin[] = ['registry', 'option', 'learned', 'default'];

export function decodeWindow(read: FieldReader): UsageWindow {
  return {
    window: read.tokens('window', MAX_PLAUSIBLE_TOKENS),
    threshold: read.tokens('threshold', MAX_PLAUSIBLE_TOKENS),
    calibratedThreshold: read.tokens('calibratedThreshold', MAX_PLAUSIBLE_TOKENS),
    hardLimit: read.tokens('hardLimit', MAX_PLAUSIBLE_TOKENS),
    windowSource: read.oneOf('windowSource', WINDOW_ORIGINS),
    ...decodeLearnedWindow(read),
    ...decodeSummarizerWindow(read),
    ...decodeRejectedSize(read),
    ...decodeFailover(read),
  };
}

/** The failover-shaped refusals: the member's window with the model it is for, and their count. */
function decodeFailover(
  read: FieldReader,
): Pick<UsageWindow, 'failoverWindow' | 'failoverModel' | 'failovers' | 'failoverAt'> {
  const pair = modelCount(read, 'failoverWindow', 'failoverModel');
  const failovers = read.counter('failovers');
  if (!pair || failovers === 0) return {};
  return { failoverWindow: pair.count, failoverModel: pair.model, failovers, failoverAt: read.counter('failoverAt') };
}

/** The rejected size: a whole count of at least 1,024, with the model it is for (bounded further when used). */
function decodeRejectedSize(read: FieldReader): Pick<UsageWindow, 'rejectedTokens' | 'rejectedModel'> {
  const pair = modelCount(read, 'rejectedTokens', 'rejectedModel');
  return pair ? { rejectedTokens: pair.count, rejectedModel: pair.model } : {};
}

/** The summarizer model's learned window: a whole count of at least 1,024, with the model it is for. */
function decodeSummarizerWindow(read: FieldReader): Pick<UsageWindow, 'summarizerWindow' | 'summarizerWindowModel'> {
  const pair = modelCount(read, 'summarizerWindow', 'summarizerWindowModel');
  return pair ? { summarizerWindow: pair.count, summarizerWindowModel: pair.model } : {};
}

/** A window-sized count stored with the model it is for: both or neither (a count without its model is dropped). */
function modelCount(
  read: FieldReader,
  countKey: string,
  modelKey: string,
): { count: number; model: string } | undefined {
  const model = read.string(modelKey);
  const count = read.number(countKey, { min: MIN_PLAUSIBLE_WINDOW, max: MAX_PLAUSIBLE_TOKENS - 1, integer: true });
  if (count === undefined || model === undefined) {
    if (count !== undefined) read.drop(countKey);
    return undefined;
  }
  return { count, model };
}

/** The budget a call was measured against, and where its window came from. */
export function withBudget<T extends UsageWindow>(usage: T, budget: Budget, origin: WindowOrigin | undefined): T {
  return {
    ...usage,
    window: budget.window,
    threshold: budget.threshold,
    calibratedThreshold: budget.calibratedThreshold,
    hardLimit: budget.hardLimit,
    windowSource: origin,
  };
}

/**
 * The learned window is bounded like a provider's statement (usage/learned-window.ts): a whole count of at
 * least 1,024, and never below a request the same model accepted in this session. An accepted estimate is in
 * the estimator's tokens, not the provider's: learning scaled it by the rejection's stated size over its
 * estimate, at least 1 / STATED_SIZE_RATIO, which a record does not keep, so it bounds here at that least.
 */
function decodeLearnedWindow(
  read: FieldReader,
): Pick<UsageWindow, 'learnedWindow' | 'learnedWindowModel' | 'acceptedTokens' | 'acceptedEstimate' | 'acceptedModel'> {
  const accepted = {
    acceptedTokens: read.tokens('acceptedTokens', MAX_PLAUSIBLE_TOKENS),
    acceptedEstimate: read.tokens('acceptedEstimate', MAX_PLAUSIBLE_TOKENS),
    acceptedModel: read.string('acceptedModel'),
  };
  const model = read.string('learnedWindowModel');
  const window = read.number('learnedWindow', {
    min: MIN_PLAUSIBLE_WINDOW,
    max: MAX_PLAUSIBLE_TOKENS - 1,
    integer: true,
  });
  const floor =
    model !== undefined && model === accepted.acceptedModel
      ? Math.max(accepted.acceptedTokens ?? 0, Math.floor((accepted.acceptedEstimate ?? 0) / STATED_SIZE_RATIO))
      : 0;
  if (window === undefined || model === undefined || window < floor) {
    if (window !== undefined) read.drop('learnedWindow');
    return accepted;
  }
  return { ...accepted, learnedWindow: window, learnedWindowModel: model };
}
