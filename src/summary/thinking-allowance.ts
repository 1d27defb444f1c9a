/**
 * The output cap of a summary request: the summary's own cap, and room for the model's thinking on top where the
 * model is a Gemini that thinks. Gemini 2.5 and later think by default and count their thoughts in
 * `maxOutputTokens`, so a cap sized for the summary alone can come back empty or cut to a line (the sixty-third outside
 * trial, a model emulating that rule: `thinkingBudget: 2048` under a 1,400-token cap, 4 of 9 summaries empty; dynamic
 * thinking, each summary cut to 22-76 tokens and kept). The text is still held to the summary's size by the prompt and
 * the guard's cut after the answer. Only Gemini: its input limit is apart from its output, while other providers check
 * input plus `max_tokens` against the window (review 55: a vLLM-style server rejected every summary request). Pure.
 */
import type { ThinkingConfig } from '@google/genai';

/** Allowed for thoughts when the budget is the model's own (dynamic, a thinking level, or a model's default). */
export const DEFAULT_THINKING_ALLOWANCE = 8_192;

/** Gemini's largest `maxOutputTokens` (2.5 and 3): a larger cap is refused. */
const GEMINI_MAX_OUTPUT_TOKENS = 65_536;

/** A Gemini model by name, however prefixed: `models/…`, `vertex_ai/…`, a Vertex publisher path. */
const GEMINI = /(^|[^a-z0-9-])gemini-/i;

/** Whether `model` names a Gemini (the shell also asks ADK's `Gemini` class: a tuned endpoint is not named so). */
export function isGeminiName(model: string): boolean {
  return GEMINI.test(model);
}

/** Gemini models that think unless told not to: 2.5 and every later generation, the `-latest` aliases, thinking previews. */
const THINKS_BY_DEFAULT = /(^|[^a-z0-9-])gemini-((2\.5|[3-9](\.\d+)?)-|(flash|pro)(-lite)?-latest\b|[\w.-]*thinking)/i;

/**
 * Tokens for thoughts on top of the summary's cap, for a model that is a Gemini (`gemini`): the agent's explicit
 * budget, none when it is off, else the default where thinking is asked for or the model thinks by default.
 */
export function thinkingAllowance(model: string, thinking: ThinkingConfig | undefined, gemini: boolean): number {
  if (!gemini) return 0;
  const budget = thinking?.thinkingBudget;
  if (budget === 0) return 0;
  if (budget !== undefined && budget > 0) return budget;
  if (thinking !== undefined || THINKS_BY_DEFAULT.test(model)) return DEFAULT_THINKING_ALLOWANCE;
  return 0;
}

/** `summaryCap` and `allowance` for thoughts, never over Gemini's largest output cap where an allowance is made. */
export function summaryOutputCap(summaryCap: number, allowance: number): number {
  return allowance === 0 ? summaryCap : Math.min(GEMINI_MAX_OUTPUT_TOKENS, summaryCap + allowance);
}
