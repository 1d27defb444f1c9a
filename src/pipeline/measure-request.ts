/**
 * Step 2 of the decision: the estimate of [summary + contents the summary
 * leaves] + system, tools and pins, its calibration by the last real count,
 * and the budget it is held against.
 */
import type { Content } from '@google/genai';
import { policyBudget, type Budget } from '../budget/compute-budget.js';
import { summaryContent, type SummaryContentOptions } from '../summary/inject-summary.js';
import { uncoveredContents, uncoveredTokens, viewEstimate, type SummaryCoverage } from '../split/coverage.js';
import { calibrate, correctionFactor } from '../estimate/calibration.js';
import { contentFramingTokens, estimateContentTokens } from '../estimate/estimate-content.js';
import { contentsFramingTokens } from '../estimate/estimate-request.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { ResolvedPolicy } from '../options.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { UsageRecord } from '../usage/stored-usage.js';

export interface MeasureInput {
  readonly summary: SummaryRecord | undefined;
  readonly coverage: SummaryCoverage;
  readonly view: readonly Content[];
  readonly viewTokens: readonly number[];
  /** The framing of each content of `view`, when known (else worked out from the contents). */
  readonly viewFraming?: readonly number[] | undefined;
  /** Tokens of the system instruction, tools and pins. */
  readonly fixedTokens: number;
  /** Of `fixedTokens`, the estimator's own framing (calibration applies its ratio to the rest). */
  readonly fixedFramingTokens?: number | undefined;
  readonly viewOptions: SummaryContentOptions;
  readonly tokenizer: Tokenizer;
  readonly usage: UsageRecord;
  readonly policy: ResolvedPolicy;
  readonly window: number;
  readonly maxOutputTokens?: number | undefined;
}

export interface RequestMeasure {
  /** Heuristic tokens of the summary as it would be injected (0 without one). */
  readonly summaryTokens: number;
  /** Heuristic estimate of the whole request, and its calibrated value. */
  readonly estimate: number;
  /** Of `estimate`, the estimator's own framing: of exactly what is sent when nothing is reduced. */
  readonly framing: number;
  readonly calibrated: number;
  readonly factor: number;
  /** Whether a real count has calibrated the factor. */
  readonly isCalibrated: boolean;
  readonly budget: Budget;
}

export function measureRequest(input: MeasureInput): RequestMeasure {
  const { summary, policy, usage } = input;
  const tail = uncoveredContents(input.view, input.coverage);
  const injected = summary && summaryContent(summary, tail, input.viewOptions);
  const summaryTokens = injected ? estimateContentTokens(injected, input.tokenizer) : 0;
  const estimate = viewEstimate(input.fixedTokens, summaryTokens, input.viewTokens, input.coverage);
  // Summed from the per-content figures when the view has them: walking every content's parts was O(history) a call.
  const contentsFraming = input.viewFraming
    ? uncoveredTokens(input.viewFraming, input.coverage)
    : contentsFramingTokens(tail);
  const framing = (input.fixedFramingTokens ?? 0) + (injected ? contentFramingTokens(injected) : 0) + contentsFraming;
  const current = { estimate, framing };
  const { factor, calibrated: isCalibrated } = correctionFactor(usage, policy.defaultCorrection, current);
  const budget = policyBudget(input.window, policy, input.maxOutputTokens, isCalibrated);
  return {
    summaryTokens,
    estimate,
    framing,
    calibrated: calibrate(estimate, usage, policy.defaultCorrection, framing),
    factor,
    isCalibrated,
    budget,
  };
}
