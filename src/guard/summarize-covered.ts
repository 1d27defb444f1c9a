/**
 * Step 7 of the decision, the only async one: summarize what the new split
 * covers. Whatever the injected summarizer does (fails, throws, is absent),
 * the result is a summary text: the mechanical fallback then. Failures are
 * turned into a `SummaryOutcome` here and nowhere else in the decision.
 */
import type { Content } from '@google/genai';
import type { CompactionPlan } from '../budget/compaction-plan.js';
import { contentText, latestUserRequestIndex } from '../content/content-shape.js';
import { buildFallbackSummary } from '../compaction/fallback-summary.js';
import type { SummarizeRequest, SummaryOutcome } from '../compaction/summarizer.js';
import { buildSummaryPrompt, SUMMARY_SYSTEM_INSTRUCTION } from '../compaction/summary-prompt.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { SummaryRecord } from '../state/guard-state.js';

export type SummarizeFn = (request: Omit<SummarizeRequest, 'signal'>, maxChars: number) => Promise<SummaryOutcome>;

export interface SummarizeInput {
  readonly contents: readonly Content[];
  /** What the model was last shown: masked tool results reach the summarizer masked. */
  readonly view: readonly Content[];
  readonly toCover: readonly number[];
  readonly previous: SummaryRecord | undefined;
  readonly plan: CompactionPlan;
  readonly tokenizer: Tokenizer;
  readonly summarize: SummarizeFn | undefined;
}

export interface Summarized {
  readonly text: string;
  readonly outcome: SummaryOutcome;
  /** The contents summarized, as shown to the summarizer. */
  readonly summarizedContents: Content[];
  readonly currentRequest: string | undefined;
  /** Contents the prompt left out to respect its bound. */
  readonly droppedContents: number;
}

const UNAVAILABLE: SummaryOutcome = { ok: false, kind: 'unavailable', reason: 'no summarizer available' };

/** Runs the summarizer; the one place its failures are caught. */
export async function runSafely(
  summarize: SummarizeFn | undefined,
  request: Omit<SummarizeRequest, 'signal'>,
  maxChars: number,
): Promise<SummaryOutcome> {
  if (!summarize) return UNAVAILABLE;
  try {
    return await summarize(request, maxChars);
  } catch (error) {
    return { ok: false, kind: 'failed', reason: `failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export async function summarizeCovered(input: SummarizeInput): Promise<Summarized> {
  const { previous, plan } = input;
  const requestIndex = latestUserRequestIndex(input.contents);
  const currentRequest = requestIndex >= 0 ? contentText(input.contents[requestIndex]) : previous?.currentRequest;
  // Masked tool results stay masked: they are recallable, and re-reading them would make the summary cost what masking saved.
  const summarizedContents = input.toCover.flatMap((index) => input.view[index] ?? []);
  const prompt = buildSummaryPrompt({
    previousSummary: previous?.text,
    contents: summarizedContents,
    currentRequest,
    maxPromptTokens: plan.summarizerPromptTokens,
    maxSummaryTokens: plan.summaryCap,
    tokenizer: input.tokenizer,
  });
  const request = {
    prompt: prompt.prompt,
    systemInstruction: SUMMARY_SYSTEM_INSTRUCTION,
    maxOutputTokens: plan.summaryCap,
  };
  const outcome = await runSafely(input.summarize, request, plan.summaryMaxChars);
  const text = outcome.ok
    ? outcome.text
    : buildFallbackSummary({
        previousSummary: previous?.text,
        contents: summarizedContents,
        currentRequest,
        maxChars: plan.summaryMaxChars,
      });
  return { text, outcome, summarizedContents, currentRequest, droppedContents: prompt.droppedContents };
}
