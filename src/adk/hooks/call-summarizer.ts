/**
 * The summarizer as a call of the guard runs it: under its timeout and the turn's abort signal, firing
 * the compaction hooks around it, a "prompt too long" rejection noted for the caller to learn from.
 */
import { summaryCountTeaches } from '../../usage/summary-correction.js';
import { readUsage } from '../runtime/state-writer.js';
import type { Context } from '@google/adk';
import {
  runSummarizer,
  type SummarizeFn,
  type SummarizeRequest,
  type Summarizer,
  type SummaryOutcome,
} from '../../summary/summarizer.js';
import { summaryRequestTokens } from '../../summary/summary-request-tokens.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import type { ResolvedPolicy } from '../../options.js';
import type { CompactionHooks } from './compaction-hooks.js';
import { noteRejections, type SummaryRejection } from './summary-rejection.js';

/**
 * The call's summarizer: under its timeout and the turn's abort signal, firing the compaction hooks, its counted
 * outcomes measured, and noting a "prompt too long" rejection in `slot` with the estimate of the request it was sent.
 */
export function summarizeForCall(
  summarizer: Summarizer | undefined,
  slot: SummaryRejection | undefined,
  call: {
    readonly policy: ResolvedPolicy;
    readonly context: Context;
    readonly hooks: CompactionHooks;
    readonly fixed: AgentFixed;
    readonly tokenizer: Tokenizer;
  },
): SummarizeFn | undefined {
  if (!summarizer) return undefined;
  const { policy, context, hooks, fixed, tokenizer } = call;
  const estimate = requestEstimate(fixed, tokenizer);
  const summarize = measured(summarizeWith(summarizer, policy, context), estimate, context);
  return hooks.wrap(slot ? noteRejections(summarize, slot, estimate) : summarize);
}

/** The summarizer of a background preparation: under the timeout, its counted outcomes measured as the call's are. */
export function summarizeInBackground(
  summarizer: Summarizer | undefined,
  policy: ResolvedPolicy,
  fixed: AgentFixed,
  tokenizer: Tokenizer,
  context: Context,
): SummarizeFn | undefined {
  if (!summarizer) return undefined;
  return measured(summarizeWith(summarizer, policy), requestEstimate(fixed, tokenizer), context);
}

type AgentFixed = { readonly systemTokens: number; readonly toolTokens: number };

/** Heuristic tokens of a summary request, as any request is measured (summary/summary-request-tokens.ts). */
function requestEstimate(
  fixed: AgentFixed,
  tokenizer: Tokenizer,
): (request: Omit<SummarizeRequest, 'signal'>) => number {
  const agentFixed = fixed.systemTokens + fixed.toolTokens;
  return (request) => summaryRequestTokens(request, agentFixed, tokenizer);
}

/**
 * `summarize`, a counted outcome of one call carrying the heuristic tokens of the request counted: the pair
 * calibrates an agent that has no count of its own (usage/summary-correction.ts). Measured only then: the request
 * continues the agent's history, and measuring it tokenizes that history.
 */
function measured(
  summarize: SummarizeFn,
  estimate: (request: Omit<SummarizeRequest, 'signal'>) => number,
  context: Context,
): SummarizeFn {
  return async (request, maxChars, clock) => {
    const outcome = await summarize(request, maxChars, clock);
    if (!outcome.ok || outcome.promptTokens === undefined || (outcome.calls ?? 1) > 1) return outcome;
    if (!summaryCountTeaches(readUsage(context.state, context.agentName))) return outcome;
    return { ...outcome, requestTokens: estimate(request) };
  };
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
