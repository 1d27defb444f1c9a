/**
 * The summarizer seam and the policy around it: a timeout, an output cap, a
 * verdict, and the one place (`summarizeOrFallback`) where any failure becomes
 * the mechanical summary, so a summarizer can fail, hang, return nothing or
 * return too much without failing the agent's turn.
 */

import type { Content } from '@google/genai';
import { safeHead } from '../text/truncate-text.js';
import { buildFallbackSummary, type FallbackSummaryInput } from './fallback-summary.js';

/** What a summarizer is asked: the prompt the guard built, and how it may answer (docs/configuration.md). */
export interface SummarizeRequest {
  /** The whole prompt (see summary/prompt.ts). */
  readonly prompt: string;
  readonly systemInstruction: string;
  /** Output cap in tokens; the summarizer should pass it to its model. */
  readonly maxOutputTokens: number;
  /** Aborted when the timeout expires. */
  readonly signal: AbortSignal;
  /**
   * Set only for the agent's own model (the default summarizer) when the agent's request fits its
   * window with the summary: the leading contents of the request the agent was about to send,
   * unchanged, to send again with the agent's system instruction and tools so the provider's cache
   * serves them; `prompt` is then the summarizing instruction that follows them as the last user turn.
   * A `Summarizer` of your own is never given it.
   */
  readonly leadingContents?: readonly Content[] | undefined;
}

/** What a `Summarizer` returns: the summary text, and what the provider reported of the call. */
export interface SummarizeResult {
  readonly text: string;
  /** The provider's finish reason, when known (`STOP`, `MAX_TOKENS`, ...). */
  readonly finishReason?: string | undefined;
  readonly promptTokens?: number | undefined;
  /** Of `promptTokens`, those the provider served from its cache (`usageMetadata.cachedContentTokenCount`). */
  readonly cachedPromptTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
}

/** Anything that turns a prompt into a summary. `llmSummarizer(model)` adapts an ADK `BaseLlm`. */
export interface Summarizer {
  /** Shown in logs, status and compaction records. */
  readonly name: string;
  /**
   * The context window of the model behind it, in tokens (integer >= 1,024): the summarizer's input is
   * kept within it. The `summarizerContextWindow` option wins over it; without either, the agent's window is used.
   */
  readonly contextWindow?: number | undefined;
  summarize(request: SummarizeRequest): Promise<SummarizeResult>;
}

export type SummaryOutcome =
  | {
      readonly ok: true;
      readonly text: string;
      /** True when the answer was cut (by the provider's MAX_TOKENS or by our cap). */
      readonly truncated: boolean;
      readonly promptTokens?: number | undefined;
      readonly cachedPromptTokens?: number | undefined;
      readonly outputTokens?: number | undefined;
      /** Summarizer calls the summary took, when more than one (summary/summarize-covered.ts); the tokens are theirs. */
      readonly calls?: number | undefined;
      /**
       * Heuristic tokens of the one request whose count is `promptTokens`, when the guard measured it
       * (usage/summary-correction.ts): absent for a summary of several calls.
       */
      readonly requestTokens?: number | undefined;
    }
  | {
      readonly ok: false;
      /** What went wrong, safe to store: it never quotes the conversation. */
      readonly kind: SummarizerFailureKind;
      /** Details for debugging: a provider's error text, which can quote the conversation. */
      readonly reason: string;
      /** Summarizer calls made, when more than one (the last failed), and what the earlier ones billed. */
      readonly calls?: number | undefined;
      readonly promptTokens?: number | undefined;
      readonly cachedPromptTokens?: number | undefined;
      readonly outputTokens?: number | undefined;
    };

export const SUMMARIZER_FAILURE_KINDS = ['timeout', 'failed', 'empty', 'cut', 'unavailable'] as const;
/**
 * Why the mechanical summary was used: timed out, threw or errored, returned no text, was cut short by its output cap
 * (`cut`: under a quarter of the summary's size when the provider stopped at `MAX_TOKENS`, as when a thinking model's
 * thoughts take the cap), or no summarizer at all.
 */
export type SummarizerFailureKind = (typeof SUMMARIZER_FAILURE_KINDS)[number];

/**
 * One summary's time, shared by its calls (several when what it covers does not fit the summarizer's window at once):
 * the first call sets `startedAt`, and every call has what is left of the summarizer's timeout.
 */
export interface SummaryClock {
  startedAt?: number;
}

/** A summarizer bound to its timeout and caller (see `runSummarizer`); it may reject. */
export type SummarizeFn = (
  request: Omit<SummarizeRequest, 'signal'>,
  maxChars: number,
  clock?: SummaryClock,
) => Promise<SummaryOutcome>;

const UNAVAILABLE: SummaryOutcome = { ok: false, kind: 'unavailable', reason: 'no summarizer available' };

/**
 * The summary's text and the summarizer's verdict: on any failure (it threw, timed out, returned no
 * text, or there is none), the mechanical summary of `fallback`. The one place a failure is caught.
 */
export async function summarizeOrFallback(
  summarize: SummarizeFn | undefined,
  request: Omit<SummarizeRequest, 'signal'>,
  fallback: FallbackSummaryInput,
  clock?: SummaryClock,
): Promise<{ readonly text: string; readonly outcome: SummaryOutcome }> {
  const outcome = await verdictOf(summarize, request, fallback.maxChars, clock);
  return { text: outcome.ok ? outcome.text : buildFallbackSummary(fallback), outcome };
}

async function verdictOf(
  summarize: SummarizeFn | undefined,
  request: Omit<SummarizeRequest, 'signal'>,
  maxChars: number,
  clock: SummaryClock | undefined,
): Promise<SummaryOutcome> {
  if (!summarize) return UNAVAILABLE;
  try {
    return await summarize(request, maxChars, clock);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: 'failed', reason: `failed: ${message.slice(0, 300)}` };
  }
}

/**
 * A summary the provider stopped at its output cap with less than this share of the summary's size written: something
 * else took the cap (a thinking model's thoughts), and a line of it is no summary (the sixty-third outside trial: 22-76
 * tokens kept as summaries of 48 events).
 */
const CUT_SHORT_SHARE = 0.25;

/** What a summarizer's answer reports of its bill. */
type Billed = Pick<SummarizeResult, 'promptTokens' | 'cachedPromptTokens' | 'outputTokens'>;

const usageOf = (result: Billed | undefined): Billed => ({
  promptTokens: result?.promptTokens,
  cachedPromptTokens: result?.cachedPromptTokens,
  outputTokens: result?.outputTokens,
});

/**
 * Runs a summarizer under a timeout and the output cap: a timeout or an empty answer is a failed
 * verdict; a throw is left to `summarizeOrFallback`, which catches every failure.
 */
export async function runSummarizer(
  summarizer: Summarizer,
  request: Omit<SummarizeRequest, 'signal'>,
  options: { timeoutMs: number; maxChars: number; signal?: AbortSignal | undefined },
): Promise<SummaryOutcome> {
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<SummaryOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('summarizer timeout'));
      resolve({ ok: false, kind: 'timeout', reason: `timed out after ${options.timeoutMs} ms` });
    }, options.timeoutMs);
  });
  const attempt = (async (): Promise<SummaryOutcome> => {
    const result = await summarizer.summarize({ ...request, signal: controller.signal });
    const text = typeof result?.text === 'string' ? result.text.trim() : '';
    // An answer with no text (thoughts only, a safety block, an empty MAX_TOKENS) was billed all the same.
    if (text.length === 0) return { ok: false, kind: 'empty', reason: 'returned no text', ...usageOf(result) };
    const cut = text.length > options.maxChars;
    const finishReason = result.finishReason;
    if (finishReason === 'MAX_TOKENS' && text.length < options.maxChars * CUT_SHORT_SHARE)
      return { ok: false, kind: 'cut', reason: `cut short at ${text.length} characters`, ...usageOf(result) };
    return {
      ok: true,
      text: cut ? safeHead(text, options.maxChars) : text,
      truncated:
        cut || (finishReason !== undefined && finishReason !== 'STOP' && finishReason !== 'FINISH_REASON_UNSPECIFIED'),
      promptTokens: result.promptTokens,
      cachedPromptTokens: result.cachedPromptTokens,
      outputTokens: result.outputTokens,
    };
  })();
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}
