/**
 * Steps 7-8 for one split, the only async step of the decision: summarize what it newly covers
 * and build the summary record. Whatever the injected summarizer does (fails, throws, is absent),
 * the result is a summary: the mechanical fallback then (`summarizeOrFallback`). Shared by a
 * compaction in the call (pipeline/make-summary.ts) and a summary prepared in the background
 * (preparation/prepared-summary.ts), so both give the same record and the same fallback.
 */
import type { Content } from '@google/genai';
import type { CompactionPlan } from '../budget/compaction-plan.js';
import { contentText, latestUserRequestIndex } from '../content/content-shape.js';
import { summarizeOrFallback, type SummarizeFn, type SummarizeRequest, type SummaryOutcome } from './summarizer.js';
import { buildSummaryPrompt, SUMMARY_SYSTEM_INSTRUCTION } from './prompt.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { SummaryRecord } from './stored-summary.js';
import type { NewSummary } from './new-summary.js';
import { buildSummaryRecord } from './build-summary-record.js';
import { buildFallbackSummary } from './fallback-summary.js';
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
}

export async function summarizeCovered(input: SummarizeInput): Promise<NewSummary> {
  const { previous, plan, split } = input;
  const requestIndex = latestUserRequestIndex(input.contents);
  const currentRequest = requestIndex >= 0 ? contentText(input.contents[requestIndex]) : previous?.currentRequest;
  // Masked tool results stay masked: they are recallable, and re-reading them would make the summary cost what masking saved.
  const summarizedContents = split.toCover.flatMap((index) => input.view[index] ?? []);
  const made = await summarizeSpan(
    input,
    summarizedContents,
    { previousText: previous?.text, currentRequest, keepFirst: lateAnswerBlocks(previous, split.toCover) },
    MAX_SUMMARIZER_CALLS,
  );
  return buildSummaryRecord({
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
 * A summary of `contents` in at most `calls` summarizer calls. When the oldest of them do not fit the summarizer's
 * window beside the newest, they are summarized first and that summary is carried into the newer ones' call, as a
 * previous summary is: a prompt that leaves them out loses them, though nothing had read them (docs/design.md,
 * "Summarize").
 */
async function summarizeSpan(
  input: SummarizeInput,
  contents: readonly Content[],
  context: SpanContext,
  calls: number,
): Promise<SpanSummary> {
  const { request, droppedContents } = summaryRequestFor(input, contents, context);
  if (droppedContents > 0 && droppedContents < contents.length && calls >= 2) {
    // Only the guard's own prompt drops: the agent's request continued is never split (it covers all or nothing).
    const parts = { ...input, fromRequest: undefined };
    const older = await summarizeSpan(parts, contents.slice(0, droppedContents), context, Math.floor(calls / 2));
    // A summarizer that failed is not called again for the rest: the mechanical summary of it all.
    if (!older.outcome.ok)
      return { ...fallbackOf(input, contents, context), outcome: older.outcome, droppedContents: 0 };
    const newer = await summarizeSpan(
      parts,
      contents.slice(droppedContents),
      { ...context, previousText: older.text, keepFirst: 0 },
      calls - Math.floor(calls / 2),
    );
    return {
      text: newer.text,
      outcome: withTokensOf(older.outcome, newer.outcome),
      droppedContents: older.droppedContents + newer.droppedContents,
    };
  }
  const { text, outcome } = await summarizeOrFallback(input.summarize, request, {
    previousSummary: context.previousText,
    contents,
    currentRequest: context.currentRequest,
    maxChars: input.plan.summaryMaxChars,
  });
  return { text, outcome, droppedContents };
}

/** The mechanical summary of `contents` (summary/fallback-summary.ts), as a failed call gets. */
function fallbackOf(
  input: SummarizeInput,
  contents: readonly Content[],
  context: SpanContext,
): { readonly text: string } {
  const { previousText, currentRequest } = context;
  const maxChars = input.plan.summaryMaxChars;
  return { text: buildFallbackSummary({ previousSummary: previousText, contents, currentRequest, maxChars }) };
}

/** The newer call's verdict, billed for both calls' tokens (the older call's bill is the same summary's). */
function withTokensOf(older: SummaryOutcome, newer: SummaryOutcome): SummaryOutcome {
  const calls = (older.calls ?? 1) + (newer.calls ?? 1);
  if (!older.ok || !newer.ok) return { ...newer, calls };
  const sum = (a: number | undefined, b: number | undefined) =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  return {
    ...newer,
    promptTokens: sum(older.promptTokens, newer.promptTokens),
    cachedPromptTokens: sum(older.cachedPromptTokens, newer.cachedPromptTokens),
    outputTokens: sum(older.outputTokens, newer.outputTokens),
    calls,
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
