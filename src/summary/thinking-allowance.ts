/**
 * Output tokens a summary request allows beyond the summary's own cap, for the model's thinking. Gemini 2.5 and later
 * think by default and count their thoughts in `maxOutputTokens`, so a cap sized for the summary alone can come back
 * empty or cut to a line (the sixty-third outside trial, a model emulating that rule: `thinkingBudget: 2048` under a
 * 1,400-token cap, 4 of 9 summaries empty; dynamic thinking, each summary cut to 22-76 tokens and kept). The text is
 * still held to the summary's size by the prompt and by the guard's cut after the answer. Pure.
 */
import type { ThinkingConfig } from '@google/genai';

/** Allowed for thoughts when the budget is the model's own (dynamic, a thinking level, or a model's default). */
export const DEFAULT_THINKING_ALLOWANCE = 8_192;

/** Gemini models that think unless told not to: 2.5 and every later generation, wherever the name is routed. */
const THINKS_BY_DEFAULT = /(^|[/:])gemini-(2\.5|[3-9](\.\d+)?)-/i;

/** Tokens for thoughts on top of the summary's cap: the agent's explicit budget, none when it is off, else the default. */
export function thinkingAllowance(model: string, thinking: ThinkingConfig | undefined): number {
  const budget = thinking?.thinkingBudget;
  if (budget === 0) return 0;
  if (budget !== undefined && budget > 0) return budget;
  if (thinking !== undefined || THINKS_BY_DEFAULT.test(model)) return DEFAULT_THINKING_ALLOWANCE;
  return 0;
}
