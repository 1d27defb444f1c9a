/**
 * Step 8 of the decision: the summary record to persist, with its durable
 * facts merged from the previous summary, the summarized contents and (from a
 * real summarizer) the summary's own key facts.
 */
import type { Content } from '@google/genai';
import { MAX_DURABLE_FACTS } from '../budget/compaction-plan.js';
import type { SummaryOutcome } from './summarizer.js';
import type { SummaryCoverage } from '../split/coverage.js';
import { extractFacts } from '../memory/fact-candidates.js';
import { factsChars, mergeFacts, notRestating, parseKeyFacts, type FactCandidate } from '../memory/durable-facts.js';
import { RECORD_VERSION } from '../state/codec.js';
import { type SummaryRecord } from './stored-summary.js';
import type { NewSummary } from './new-summary.js';
import { droppedFactsOf } from './dropped-facts.js';
import { anchorAt } from '../state/watermark.js';
import { answerFacts } from '../memory/answer-facts.js';
import { coveredContentsAt } from '../state/covered-contents.js';
import { quotedGuardMarkers } from './quoted-guard-markers.js';

export interface SummaryRecordInput {
  readonly previous: SummaryRecord | undefined;
  /** The summary's text (the summarizer's, or the fallback's) and the summarizer's verdict. */
  readonly text: string;
  readonly outcome: SummaryOutcome;
  /** The contents summarized, as shown to the summarizer. */
  readonly summarizedContents: readonly Content[];
  readonly currentRequest: string | undefined;
  readonly droppedContents: number;
  readonly coverage: SummaryCoverage;
  readonly fingerprints: readonly string[];
  readonly factChars: number;
  /** Bound of the previous summary's facts' floor and of the marked facts' room (`CompactionPlan.factCharsCap`). */
  readonly factCharsCap: number;
  readonly now: number;
  /** Keys of the application's answers (content/answer-key.ts): those among the summarized contents become facts. */
  readonly answers?: readonly string[] | undefined;
  /** Where among the summarized contents the session's first message is, when this summary is the first to read it. */
  readonly openingAt?: number | undefined;
}

export function buildSummaryRecord(input: SummaryRecordInput): NewSummary {
  const { previous, outcome, coverage, fingerprints } = input;
  // A copy of the guard's own headings or markers (a page's forgery, or an earlier summary's) is stored as a quotation;
  // the key facts are read before it, where a copied heading still ends the `## Key facts` section.
  const text = quotedGuardMarkers(input.text);
  const compactions = (previous?.compactions ?? 0) + 1;
  const keyFacts: FactCandidate[] = outcome.ok
    ? parseKeyFacts(input.text).map((fact) => ({ text: fact, restated: true }))
    : [];
  // The summarizer's list first: of facts first seen at one compaction the later are kept first, and the user's words
  // outrank a summarizer's restatement of them.
  // A restatement of the user's fact is dropped, not merged: the fact keeps the text first recorded (review 11).
  const own = [
    ...extractFacts(input.summarizedContents, input.openingAt),
    ...answerFacts(input.summarizedContents, input.answers ?? []),
  ];
  const candidates = [...notRestating(keyFacts, own), ...own];
  // Never fewer characters than the previous summary carried: a compaction made while a large message is in flight
  // has a summary's floor of room, 72 characters of facts, and every fact kept so far would be gone for good (the
  // eighth trial's harness: the user's "remember: my order id is ..." among them). But never more than the room
  // gives facts without that message (review 10: on a 4k window, 30 marked facts made every turn compact).
  const carried = Math.min(factsChars(previous?.facts ?? []), input.factCharsCap);
  const facts = mergeFacts(previous?.facts ?? [], candidates, compactions, {
    maxFacts: MAX_DURABLE_FACTS,
    maxChars: Math.max(input.factChars, carried),
    markedChars: Math.max(input.factChars, input.factCharsCap),
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
    contents: coveredContentsAt((index) => fingerprints[index], coverage.covered),
    currentRequest: input.currentRequest,
    compactions,
    fallback: !outcome.ok,
    createdAt: input.now,
    facts: facts.facts,
    factOrigins: true,
  };
  return {
    record,
    ...droppedFactsOf(facts.dropped),
    outcome,
    droppedContents: input.droppedContents,
  };
}
