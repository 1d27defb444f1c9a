/**
 * What a provider's prompt cache charges, as far as a decision to change the
 * request needs it: the price of a cached token against an uncached one, and
 * the shortest prefix it caches at all. Their sources are in
 * docs/observability.md ("Cost estimate").
 */
import type { ModelPrice } from './price-table.js';

/**
 * The shortest prefix Gemini 2.5 models serve from the implicit cache; a
 * request under it is billed whole at the uncached price. Newer models state
 * a larger minimum, so this errs towards keeping requests cacheable.
 */
export const MIN_CACHED_PREFIX_TOKENS = 2_048;

/**
 * Cached over uncached price assumed for a model whose cached price is not
 * known: Gemini 2.5's discount, the deepest of the common providers, which
 * makes any change that breaks the cache look as dear as it can be.
 */
export const DEFAULT_CACHED_PRICE_RATIO = 0.1;

/**
 * The model's cached price as a share of its uncached one, in [0, 1]; 1 (no
 * discount) for a model priced at 0, where there is nothing to save by caching.
 */
export function cachedPriceRatio(price: ModelPrice | undefined): number {
  if (price?.cachedInput === undefined) return DEFAULT_CACHED_PRICE_RATIO;
  if (!(price.input > 0)) return 1;
  return Math.min(1, Math.max(0, price.cachedInput / price.input));
}
