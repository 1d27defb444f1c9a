/**
 * The cost of one model call from its token counts and the model's price.
 * Gemini's `promptTokenCount` includes `cachedContentTokenCount`, so the
 * uncached part is their difference.
 */
import type { ModelPrice } from './price-table.js';

/** Token counts of one call, as `usageMetadata` reports them. */
export interface CallTokens {
  /** All prompt tokens, cached ones included. */
  readonly promptTokens: number;
  /** Prompt tokens served from the cache (at most `promptTokens`). */
  readonly cachedPromptTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
}

/** Cached prompt tokens, clamped to `[0, promptTokens]`. */
export function cachedPart(tokens: CallTokens): number {
  return Math.min(Math.max(0, tokens.cachedPromptTokens ?? 0), Math.max(0, tokens.promptTokens));
}

/** USD of one call; cached tokens at `cachedInput` (at `input` when that price is unknown). */
export function callCostUsd(price: ModelPrice, tokens: CallTokens): number {
  const prompt = Math.max(0, tokens.promptTokens);
  const tier = price.longContext && prompt > price.longContext.threshold ? price.longContext : price;
  const cached = cachedPart(tokens);
  const cachedRate = tier.cachedInput ?? tier.input;
  const output = Math.max(0, tokens.outputTokens ?? 0);
  return ((prompt - cached) * tier.input + cached * cachedRate + output * tier.output) / 1_000_000;
}
