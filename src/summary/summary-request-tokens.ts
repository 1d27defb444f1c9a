/**
 * Heuristic tokens of the request a summarizer is sent, to pair with the size a provider states when
 * it rejects that request as too long (adk/hooks/summary-rejection.ts): the agent's system
 * instruction and tools with its leading contents and the instruction, for a summary that continues
 * the agent's request; else the guard's own system instruction and prompt. Counted by the estimator's
 * own functions, so a summary request is measured as any request is.
 */
import { estimateContentsTokens, estimateFixedTokens } from '../estimate/estimate-request.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { SummarizeRequest } from './summarizer.js';

/** `agentFixedTokens`: heuristic tokens of the agent's system instruction and tools, which a continuation repeats. */
export function summaryRequestTokens(
  request: Omit<SummarizeRequest, 'signal'>,
  agentFixedTokens: number,
  tokenizer: Tokenizer,
): number {
  // The prompt is one user content of one text part.
  const prompt = estimateContentTokens({ role: 'user', parts: [{ text: request.prompt }] }, tokenizer);
  if (request.leadingContents)
    return agentFixedTokens + estimateContentsTokens(request.leadingContents, tokenizer) + prompt;
  return estimateFixedTokens(request.systemInstruction, undefined, tokenizer).systemTokens + prompt;
}
