/**
 * Steps 7-8 of the decision: the new summary of a split, summarized in this
 * call, or taken from a summary prepared in the background (preparation/prepared-summary.ts)
 * when one was checked valid. A prepared summary covers only what existed when
 * it started; the contents after it stay verbatim. When it does not bring the
 * contents to the plan's `preparedTarget` (halfway from the threshold back to the target), the usual
 * split continues from it, summarized in this call.
 */
import type { Content } from '@google/genai';
import type { CompactionPlan } from '../budget/compaction-plan.js';
import { contentText, latestUserRequestIndex } from '../content/content-shape.js';
import { summaryContent, type SummaryContentOptions } from '../summary/inject-summary.js';
import { newlyCovered, uncoveredContents, uncoveredTokens, type SummaryCoverage } from '../split/coverage.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { SummarizeFn } from '../summary/summarizer.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { NewSummary } from '../summary/new-summary.js';
import { chooseSplit, type Split } from '../split/choose-split.js';
import type { PreparedHandle } from '../preparation/prepared-summary.js';
import type { RequestView } from '../masking/request-view.js';
import { summarizeCovered } from '../summary/summarize-covered.js';
import type { LeadingRequest } from '../summary/summary-from-request.js';
import { awaitedIn, type PendingCall } from '../summary/awaited-calls.js';
import { anchorAt } from '../state/watermark.js';
import { coveredContentsAt } from '../state/covered-contents.js';

interface MakeSummaryInput {
  readonly contents: readonly Content[];
  readonly view: RequestView;
  readonly split: Split;
  /** The summary that applies now, and what it covers. */
  readonly previous: SummaryRecord | undefined;
  readonly coverage: SummaryCoverage;
  readonly plan: CompactionPlan;
  readonly tokenizer: Tokenizer;
  readonly summarize: SummarizeFn | undefined;
  readonly fingerprints: readonly string[];
  readonly viewOptions: SummaryContentOptions;
  /** Set when this call masked: the continuation's split takes it into account. */
  readonly masked: boolean;
  readonly now: number;
  /** A prepared summary checked valid, with where its watermark is in the live contents. */
  readonly prepared?: { readonly handle: PreparedHandle; readonly coverage: SummaryCoverage } | undefined;
  /** Keys of the application's answers in the session: those it covers are kept as facts (memory/answer-facts.ts). */
  readonly answers?: readonly string[] | undefined;
  /** The agent's request up to a split, when the summarizer is the agent's own model (pipeline/leading-request.ts). */
  readonly leadingFor?: ((split: Split) => LeadingRequest | undefined) | undefined;
  /** Calls still awaiting the application's answer: those the new summary covers are listed in it. */
  readonly pending?: readonly PendingCall[] | undefined;
}

/** The compaction's summary: the split it covers and the new summary. */
export interface MadeSummary {
  readonly split: Split;
  readonly summary: NewSummary;
  /** Set when a prepared summary was applied; `waitedMs` is undefined when this call also summarized. */
  readonly prepared?: { readonly waitedMs: number | undefined } | undefined;
}

export async function makeSummary(input: MakeSummaryInput): Promise<MadeSummary> {
  const fromPrepared = input.prepared ? await applyPrepared(input, input.prepared) : undefined;
  return withAwaited(fromPrepared ?? (await summarizeHere(input, input.split, input.previous)), input);
}

/** The made summary listing the pending calls it covers, read from the live contents (a prepared one's are older). */
function withAwaited(made: MadeSummary, input: MakeSummaryInput): MadeSummary {
  const awaiting = awaitedIn(input.contents, made.split.coverage.covered, input.pending ?? []);
  const { awaiting: before, ...record } = made.summary.record;
  if (awaiting === undefined && before === undefined) return made;
  return { ...made, summary: { ...made.summary, record: awaiting ? { ...record, awaiting } : record } };
}

/** Summarizes `split` in this call, extending `previous`. */
async function summarizeHere(
  input: MakeSummaryInput,
  split: Split,
  previous: SummaryRecord | undefined,
): Promise<MadeSummary> {
  const fromRequest = input.leadingFor?.(split);
  return { split, summary: await summarizeCovered({ ...input, view: input.view.view, split, previous, fromRequest }) };
}

async function applyPrepared(
  input: MakeSummaryInput,
  prepared: NonNullable<MakeSummaryInput['prepared']>,
): Promise<MadeSummary | undefined> {
  const { prepared: made, waitedMs } = await prepared.handle.take();
  if (!made) return undefined;
  const { coverage } = prepared;
  const record = liveRecord(input, made.record, coverage);
  const split: Split = { coverage, toCover: newlyCovered(input.coverage, coverage) };
  const applied: MadeSummary = { split, summary: { ...made, record }, prepared: { waitedMs } };
  if (contentTokensAfter(input, record, coverage) <= input.plan.preparedTarget) return applied;
  const next = chooseSplit({
    contents: input.contents,
    viewTokens: input.view.viewTokens,
    coverage,
    reason: 'threshold',
    heldBack: false,
    masking: input.masked ? { enough: false } : undefined,
    hasSummary: true,
    summaryCap: input.plan.summaryCap,
    tailBudget: input.plan.tailBudget,
    tailRoom: input.plan.tailRoom,
    keepFrom: undefined,
  });
  if (!next) return applied;
  const continued = await summarizeHere(input, next, record);
  const toCover = [...split.toCover, ...next.toCover];
  return { ...continued, split: { coverage: next.coverage, toCover }, prepared: { waitedMs: undefined } };
}

/**
 * The prepared record where its watermark is now, with the user's current request of this call. Its anchor
 * and covered contents are read again there: kept from where it was prepared, they would not match the next
 * call's contents at its new place (the forty-ninth trial: a coordinator's two turns run at once compacted
 * the same range again on seven calls).
 */
function liveRecord(input: MakeSummaryInput, record: SummaryRecord, coverage: SummaryCoverage): SummaryRecord {
  const requestIndex = latestUserRequestIndex(input.contents);
  const fingerprintAt = (index: number): string | undefined => input.fingerprints[index];
  return {
    ...record,
    covered: coverage.covered,
    anchor: anchorAt(fingerprintAt, coverage.covered),
    contents: coveredContentsAt(fingerprintAt, coverage.covered),
    kept:
      coverage.keptAt === undefined || record.kept === undefined
        ? undefined
        : { at: coverage.keptAt, fingerprint: record.kept.fingerprint },
    currentRequest: requestIndex >= 0 ? contentText(input.contents[requestIndex]) : record.currentRequest,
    createdAt: input.now,
  };
}

/** Heuristic tokens of the contents once `record` replaces what it covers. */
function contentTokensAfter(input: MakeSummaryInput, record: SummaryRecord, coverage: SummaryCoverage): number {
  const tail = uncoveredContents(input.view.view, coverage);
  const summaryTokens = estimateContentTokens(summaryContent(record, tail, input.viewOptions), input.tokenizer);
  return summaryTokens + uncoveredTokens(input.view.viewTokens, coverage);
}
