/**
 * The summarizer as a call of the guard runs it: under its timeout and the turn's abort signal, firing
 * the compaction hooks around it, a "prompt too long" rejection noted for the caller to learn from.
 */
import type { Context } from '@google/adk';
import { runSummarizer, type SummarizeFn, type Summarizer, type SummaryOutcome } from '../../summary/summarizer.js';
import { summaryRequestTokens } from '../../summary/summary-request-tokens.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import type { ResolvedPolicy } from '../../options.js';
import type { CompactionHooks } from './compaction-hooks.js';
import { noteRejections, type SummaryRejection } from './summary-rejection.js';

/**
 * The call's summarizer: under its timeout and the turn's abort signal, firing the compaction hooks, and
 * noting a "prompt too long" rejection in `slot` with the estimate of the request it was sent.
 */
export function summarizeForCall(
  summarizer: Summarizer | undefined,
  slot: SummaryRejection | undefined,
  call: {
    readonly policy: ResolvedPolicy;
    readonly context: Context;
    readonly hooks: CompactionHooks;
    readonly fixed: { readonly systemTokens: number; readonly toolTokens: number };
    readonly tokenizer: Tokenizer;
  },
): SummarizeFn | undefined {
  if (!summarizer) return undefined;
  const { policy, context, hooks, fixed, tokenizer } = call;
  const summarize = summarizeWith(summarizer, policy, context);
  if (!slot) return hooks.wrap(summarize);
  const agentFixed = fixed.systemTokens + fixed.toolTokens;
  return hooks.wrap(noteRejections(summarize, slot, (request) => summaryRequestTokens(request, agentFixed, tokenizer)));
}

/** The summarizer under the timeout, which one summary's calls share (`SummaryClock`). */
export function summarizeWith(summarizer: Summarizer, policy: ResolvedPolicy, context?: Context): SummarizeFn {
  return (request, maxChars, clock) => {
    const now = Date.now();
    const startedAt = clock ? (clock.startedAt ??= now) : now;
    const timeoutMs = policy.summarizerTimeoutMs - (now - startedAt);
    if (timeoutMs <= 0) return Promise.resolve(TIME_SPENT);
    return runSummarizer(summarizer, request, { timeoutMs, maxChars, signal: context?.abortSignal });
  };
}

const TIME_SPENT: SummaryOutcome = {
  ok: false,
  kind: 'timeout',
  reason: "the summary's earlier calls took the summarizer's whole timeout",
};
