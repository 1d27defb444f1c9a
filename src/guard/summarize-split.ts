/**
 * Steps 7-8 for one split: summarize what it newly covers and build the summary record. Shared
 * by a compaction in the call (make-summary.ts) and a summary prepared in the background
 * (prepared-summary.ts), so both give the same record and the same fallback.
 */
import type { Content } from '@google/genai';
import type { CompactionPlan } from '../budget/compaction-plan.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { SummaryRecord } from '../state/guard-state.js';
import { buildSummaryRecord, type NewSummary } from './build-summary-record.js';
import type { Split } from './choose-split.js';
import { summarizeCovered, type SummarizeFn, type Summarized } from './summarize-covered.js';

interface SplitSummaryInput {
  readonly contents: readonly Content[];
  /** What the model was last shown (masked where masked). */
  readonly view: readonly Content[];
  readonly split: Split;
  /** The summary the new one extends. */
  readonly previous: SummaryRecord | undefined;
  readonly plan: CompactionPlan;
  readonly tokenizer: Tokenizer;
  readonly summarize: SummarizeFn | undefined;
  readonly fingerprints: readonly string[];
  readonly now: number;
}

export interface SplitSummary {
  readonly split: Split;
  readonly summarized: Summarized;
  readonly summary: NewSummary;
}

export async function summarizeSplit(input: SplitSummaryInput): Promise<SplitSummary> {
  const { split, previous, plan } = input;
  const summarized = await summarizeCovered({
    contents: input.contents,
    view: input.view,
    toCover: split.toCover,
    previous,
    plan,
    tokenizer: input.tokenizer,
    summarize: input.summarize,
  });
  const summary = buildSummaryRecord({
    previous,
    summarized,
    coverage: split.coverage,
    fingerprints: input.fingerprints,
    factChars: plan.factChars,
    now: input.now,
  });
  return { split, summarized, summary };
}
