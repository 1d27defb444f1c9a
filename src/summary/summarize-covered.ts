/**
 * Steps 7-8 for one split, the only async step of the decision: summarize what it newly covers
 * and build the summary record. Whatever the injected summarizer does (fails, throws, is absent),
 * the result is a summary: the mechanical fallback then (`summarizeOrFallback`). Shared by a
 * compaction in the call (pipeline/make-summary.ts) and a summary prepared in the background
 * (preparation/prepared-summary.ts), so both give the same record and the same fallback.
 */
import type { Content } from '@google/genai';
import type { CompactionPlan } from '../budget/compaction-plan.js';
import { contentText, isUserRequest, latestUserRequestIndex } from '../content/content-shape.js';
import {
  summarizeOrFallback,
  type SummarizeFn,
  type SummarizeRequest,
  type SummaryClock,
  type SummaryOutcome,
} from './summarizer.js';
import { buildSummaryPrompt, SUMMARY_SYSTEM_INSTRUCTION } from './prompt.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { SummaryRecord } from './stored-summary.js';
import type { NewSummary } from './new-summary.js';
import { buildSummaryRecord } from './build-summary-record.js';
import { buildFallbackSummary, type FallbackSummaryInput } from './fallback-summary.js';
import type { Split } from '../split/choose-split.js';
import { continuationInstruction, type LeadingRequest } from './summary-from-request.js';

export interface SummarizeInput {
  readonly contents: readonly Content[];
  /** What the model was last shown: masked tool results reach the summarizer masked. */
  readonly view: readonly Content[];
  readonly split: Split;
  /** The summary the new one extends. */
  readonly previous: SummaryRecord | undefined;
  readonly plan: CompactionPlan;
  readonly tokenizer: Tokenizer;
  readonly summarize: SummarizeFn | undefined;
  readonly fingerprints: readonly string[];
  readonly now: number;
  /** The agent's request before this compaction, up to the split, when the summarizer is the agent's own model. */
  readonly fromRequest?: LeadingRequest | undefined;
  /** Keys of the application's answers: those it covers are kept as facts (memory/answer-facts.ts). */
  readonly answers?: readonly string[] | undefined;
}

export async function summarizeCovered(input: SummarizeInput): Promise<NewSummary> {
  const { previous, plan, split } = input;
  const requestIndex = latestUserRequestIndex(input.contents);
  const currentRequest = requestIndex >= 0 ? contentText(input.contents[requestIndex]) : previous?.currentRequest;
  // Masked tool results stay masked: they are recallable, and re-reading them would make the summary cost what masking saved.
  const summarizedContents = split.toCover.flatMap((index) => input.view[index] ?? []);
  const context = {
    previousText: previous?.text,
    currentRequest,
    keepFirst: lateAnswerBlocks(previous, split.toCover),
  };
  const made = await summarizeInCalls(input, summarizedContents, context);
  // The session's first message, when this summary is the first to read it: its first sentence is the task.
  const opening = split.toCover.indexOf(input.contents.findIndex(isUserRequest));
  return buildSummaryRecord({
    openingAt: opening >= 0 ? opening : undefined,
    previous,
    text: made.text,
    outcome: made.outcome,
    summarizedContents,
    currentRequest,
    droppedContents: made.droppedContents,
    coverage: split.coverage,
    fingerprints: input.fingerprints,
    factChars: plan.factChars,
    factCharsCap: plan.factCharsCap,
    now: input.now,
    answers: input.answers,
  });
}

/** Summarizer calls at most for one summary, when the summarizer's window cannot take what it covers at once. */
const MAX_SUMMARIZER_CALLS = 4;

/** What a summary is made with besides its contents: the summary it extends, the user's request, leading blocks kept. */
interface SpanContext {
  readonly previousText: string | undefined;
  readonly currentRequest: string | undefined;
  readonly keepFirst: number;
}

interface SpanSummary {
  readonly text: string;
  readonly outcome: SummaryOutcome;
  /** Contents no summarizer call read (the oldest, when even `MAX_SUMMARIZER_CALLS` calls could not take them all). */
  readonly droppedContents: number;
}

/**
 * A summary of `contents` in one summarizer call when they fit its window beside the summary carried forward; else
 * in calls over consecutive spans, oldest first, each carrying the summary the one before it made, as a previous
 * summary is carried: a prompt that leaves the oldest out loses them, though nothing had read them (docs/design.md,
 * "Summarize"). Beyond `MAX_SUMMARIZER_CALLS` spans, the oldest are left out (the prompt says how many). The calls
 * share one timeout (`SummaryClock`), and a call that fails ends the summary with the mechanical one of them all.
 */
async function summarizeInCalls(
  input: SummarizeInput,
  contents: readonly Content[],
  context: SpanContext,
): Promise<SpanSummary> {
  const clock: SummaryClock = {};
  const first = summaryRequestFor(input, contents, context);
  if (first.droppedContents === 0) return summarizeSpan(input, first, contents, context, clock);
  // Only the guard's own prompt drops: the agent's request continued is never split (it covers all or nothing).
  const own = { ...input, fromRequest: undefined };
  const ends = spanEnds(own, contents, context);
  let made: SpanSummary | undefined;
  let from = 0;
  for (const end of ends) {
    const span = contents.slice(from, end);
    const spanContext = made ? { ...context, previousText: made.text, keepFirst: 0 } : context;
    const next = await summarizeSpan(own, summaryRequestFor(own, span, spanContext), span, spanContext, clock);
    made = made ? chained(made, next) : next;
    if (!next.outcome.ok) return { ...made, text: buildFallbackSummary(fallbackInput(input, contents, context)) };
    from = end;
  }
  return made!;
}

/** One call: the summary of `contents`, or their mechanical one when it fails. */
async function summarizeSpan(
  input: SummarizeInput,
  asked: ReturnType<typeof summaryRequestFor>,
  contents: readonly Content[],
  context: SpanContext,
  clock: SummaryClock,
): Promise<SpanSummary> {
  const made = await summarizeOrFallback(
    input.summarize,
    asked.request,
    fallbackInput(input, contents, context),
    clock,
  );
  return { ...made, droppedContents: asked.droppedContents };
}

/**
 * Where the newest `MAX_SUMMARIZER_CALLS` spans of `contents` end, oldest first: planned from the newest back, each the
 * longest that fits the summarizer's prompt beside a carried summary of the longest a summary may be (or the one it
 * extends, if longer). Contents before the oldest span go into its call, whose prompt leaves out those that do not fit.
 * At most that many spans are measured, each by probes of at most twice its length: a huge history costs no more.
 */
function spanEnds(input: SummarizeInput, contents: readonly Content[], context: SpanContext): number[] {
  const longest = 'x'.repeat(input.plan.summaryMaxChars);
  const carried = (context.previousText ?? '').length > longest.length ? context.previousText : longest;
  const spanContext = { ...context, previousText: carried, keepFirst: 0 };
  const ends: number[] = [];
  for (let end = contents.length; end > 0 && ends.length < MAX_SUMMARIZER_CALLS;) {
    const upTo = end;
    ends.unshift(upTo);
    const fits = (count: number) =>
      summaryRequestFor(input, contents.slice(upTo - count, upTo), spanContext).droppedContents === 0;
    end -= longestFitting(fits, upTo);
  }
  return ends;
}

/** The largest count in [1, `max`] that `fits` (one content always does: the prompt cuts it), doubling then halving. */
function longestFitting(fits: (count: number) => boolean, max: number): number {
  let low = 1;
  let high = max;
  for (let step = 1; low < high; step *= 2) {
    const next = Math.min(high, low + step);
    if (!fits(next)) {
      high = next - 1;
      break;
    }
    low = next;
  }
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** What the mechanical summary of `contents` is made of (summary/fallback-summary.ts), as a failed call gets. */
function fallbackInput(
  input: SummarizeInput,
  contents: readonly Content[],
  context: SpanContext,
): FallbackSummaryInput {
  const { previousText, currentRequest } = context;
  return { previousSummary: previousText, contents, currentRequest, maxChars: input.plan.summaryMaxChars };
}

/** The later call's summary and verdict, billed for both calls' tokens and counted as both (one summary's calls). */
function chained(earlier: SpanSummary, later: SpanSummary): SpanSummary {
  const [before, after] = [earlier.outcome, later.outcome];
  const sum = (key: 'promptTokens' | 'cachedPromptTokens' | 'outputTokens') =>
    before[key] === undefined && after[key] === undefined ? undefined : (before[key] ?? 0) + (after[key] ?? 0);
  // Two requests' counts are not one request's: nothing to calibrate from (usage/summary-correction.ts).
  const { requestTokens: _oneRequest, ...last } = after.ok ? after : { ...after, requestTokens: undefined };
  return {
    text: later.text,
    droppedContents: earlier.droppedContents + later.droppedContents,
    outcome: {
      ...last,
      calls: (before.calls ?? 1) + (after.calls ?? 1),
      promptTokens: sum('promptTokens'),
      cachedPromptTokens: sum('cachedPromptTokens'),
      outputTokens: sum('outputTokens'),
    },
  };
}

/**
 * The agent's own request continued by the instruction when it is given, long enough for the
 * provider to cache and fits the summarizer's window with the summary (the cache serves its
 * prefix); else the guard's own bounded prompt.
 */
function summaryRequestFor(
  input: SummarizeInput,
  summarizedContents: readonly Content[],
  context: SpanContext,
): { readonly request: Omit<SummarizeRequest, 'signal'>; readonly droppedContents: number } {
  const { plan, fromRequest } = input;
  const base = { systemInstruction: SUMMARY_SYSTEM_INSTRUCTION, maxOutputTokens: plan.summaryCap };
  const instruction = continuationInstruction(fromRequest, plan.summaryCap, input.tokenizer);
  if (fromRequest && instruction)
    return { request: { ...base, prompt: instruction, leadingContents: fromRequest.contents }, droppedContents: 0 };
  const prompt = buildSummaryPrompt({
    previousSummary: context.previousText,
    contents: summarizedContents,
    currentRequest: context.currentRequest,
    maxPromptTokens: plan.summarizerPromptTokens,
    maxSummaryTokens: plan.summaryCap,
    tokenizer: input.tokenizer,
    keepFirst: context.keepFirst,
  });
  return { request: { ...base, prompt: prompt.prompt }, droppedContents: prompt.droppedContents };
}

/**
 * The summarized contents up to a late answer that the previous summary was cut before (stored-summary.ts
 * `lateAnswer`): its call and answer come first in what is newly covered, and a prompt that omits older messages
 * would omit them first, though no summary has read them.
 */
function lateAnswerBlocks(previous: SummaryRecord | undefined, toCover: readonly number[]): number {
  if (!previous?.lateAnswer) return 0;
  const answer = toCover.indexOf(previous.covered + 1);
  return answer > 0 && toCover[answer - 1] === previous.covered ? answer + 1 : 0;
}
