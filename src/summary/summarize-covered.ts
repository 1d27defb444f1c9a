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
import { summarizeOrFallback, type SummarizeFn, type SummarizeRequest } from './summarizer.js';
import { buildSummaryPrompt, SUMMARY_SYSTEM_INSTRUCTION } from './prompt.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { SummaryRecord } from './stored-summary.js';
import type { NewSummary } from './new-summary.js';
import { buildSummaryRecord } from './build-summary-record.js';
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
  const { request, droppedContents } = summaryRequestFor(input, summarizedContents, currentRequest);
  const { text, outcome } = await summarizeOrFallback(input.summarize, request, {
    previousSummary: previous?.text,
    contents: summarizedContents,
    currentRequest,
    maxChars: plan.summaryMaxChars,
  });
  return buildSummaryRecord({
    previous,
    text,
    outcome,
    summarizedContents,
    currentRequest,
    droppedContents,
    coverage: split.coverage,
    fingerprints: input.fingerprints,
    factChars: plan.factChars,
    factCharsCap: plan.factCharsCap,
    now: input.now,
  });
}

/**
 * The agent's own request continued by the instruction when it is given, long enough for the
 * provider to cache and fits the summarizer's window with the summary (the cache serves its
 * prefix); else the guard's own bounded prompt.
 */
function summaryRequestFor(
  input: SummarizeInput,
  summarizedContents: readonly Content[],
  currentRequest: string | undefined,
): { readonly request: Omit<SummarizeRequest, 'signal'>; readonly droppedContents: number } {
  const { plan, fromRequest } = input;
  const base = { systemInstruction: SUMMARY_SYSTEM_INSTRUCTION, maxOutputTokens: plan.summaryCap };
  const instruction = continuationInstruction(fromRequest, plan.summaryCap, input.tokenizer);
  if (fromRequest && instruction)
    return { request: { ...base, prompt: instruction, leadingContents: fromRequest.contents }, droppedContents: 0 };
  const prompt = buildSummaryPrompt({
    previousSummary: input.previous?.text,
    contents: summarizedContents,
    currentRequest,
    maxPromptTokens: plan.summarizerPromptTokens,
    maxSummaryTokens: plan.summaryCap,
    tokenizer: input.tokenizer,
    keepFirst: lateAnswerBlocks(input.previous, input.split.toCover),
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
