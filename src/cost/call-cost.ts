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

/** One call's USD by what it pays for: under caching, the uncached prompt is most of what a request costs. */
interface CallCostParts {
  readonly uncachedUsd: number;
  readonly cachedUsd: number;
  readonly outputUsd: number;
}

/** Cached prompt tokens, clamped to `[0, promptTokens]`. */
export function cachedPart(tokens: CallTokens): number {
  return Math.min(Math.max(0, tokens.cachedPromptTokens ?? 0), Math.max(0, tokens.promptTokens));
}

/** USD of one call apart by uncached prompt, cached prompt and output; the tier is the whole prompt's. */
export function callCostParts(price: ModelPrice, tokens: CallTokens): CallCostParts {
  const prompt = Math.max(0, tokens.promptTokens);
  const tier = price.longContext && prompt > price.longContext.threshold ? price.longContext : price;
  const cached = cachedPart(tokens);
  const cachedRate = tier.cachedInput ?? tier.input;
  const output = Math.max(0, tokens.outputTokens ?? 0);
  return {
    uncachedUsd: ((prompt - cached) * tier.input) / 1_000_000,
    cachedUsd: (cached * cachedRate) / 1_000_000,
    outputUsd: (output * tier.output) / 1_000_000,
  };
}

/** USD of one call; cached tokens at `cachedInput` (at `input` when that price is unknown). */
export function callCostUsd(price: ModelPrice, tokens: CallTokens): number {
  const parts = callCostParts(price, tokens);
  return parts.uncachedUsd + parts.cachedUsd + parts.outputUsd;
}
