/**
 * Step 8 of the decision: the summary record to persist, with its durable
 * facts merged from the previous summary, the summarized contents and (from a
 * real summarizer) the summary's own key facts.
 */
import { MAX_DURABLE_FACTS } from '../budget/compaction-plan.js';
import type { SummaryCoverage } from '../compaction/summary-coverage.js';
import { extractFacts, mergeFacts, parseKeyFacts } from '../memory/durable-facts.js';
import { RECORD_VERSION, type SummaryRecord } from '../state/guard-state.js';
import { anchorAt } from '../state/watermark.js';
import type { Summarized } from './summarize-covered.js';

export interface SummaryRecordInput {
  readonly previous: SummaryRecord | undefined;
  readonly summarized: Summarized;
  readonly coverage: SummaryCoverage;
  readonly fingerprints: readonly string[];
  readonly factChars: number;
  readonly now: number;
}

export interface NewSummary {
  readonly record: SummaryRecord;
  /** Facts the bound left out. */
  readonly droppedFacts: readonly string[];
}

export function buildSummaryRecord(input: SummaryRecordInput): NewSummary {
  const { previous, summarized, coverage, fingerprints } = input;
  const { text, outcome } = summarized;
  const compactions = (previous?.compactions ?? 0) + 1;
  const candidates = [...extractFacts(summarized.summarizedContents), ...(outcome.ok ? parseKeyFacts(text) : [])];
  const facts = mergeFacts(previous?.facts ?? [], candidates, compactions, {
    maxFacts: MAX_DURABLE_FACTS,
    maxChars: input.factChars,
  });
  const record: SummaryRecord = {
    version: RECORD_VERSION,
    text,
    covered: coverage.covered,
    anchor: anchorAt((index) => fingerprints[index], coverage.covered),
    kept:
      coverage.keptAt === undefined
        ? undefined
        : { at: coverage.keptAt, fingerprint: fingerprints[coverage.keptAt] ?? '' },
    currentRequest: summarized.currentRequest,
    compactions,
    fallback: !outcome.ok,
    createdAt: input.now,
    facts: facts.facts,
  };
  return { record, droppedFacts: facts.dropped };
}
