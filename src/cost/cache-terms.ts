/**
 * What a provider's prompt cache charges: the shortest prefix it caches at
 * all and the price of a cached token against an uncached one, per model
 * family, in one dated table. Sources, dates and the choices made where the
 * providers' own pages disagree are in docs/observability.md ("Cost
 * estimate"); an application's `prices` entry overrides both per model.
 */
import { normalizeModelName } from '../estimate/model-registry.js';
import { routedMembers } from '../estimate/routed-model.js';
import { DEFAULT_PRICES, exactPriceFor, priceFor, type ModelPrice, type PriceTable } from './price-table.js';

/** The terms a decision or a bill needs. */
interface CacheTerms {
  /** A request whose repeated prefix is shorter is billed whole at the uncached price. */
  readonly minCachedPrefixTokens: number;
  /** Cached over uncached price, in [0, 1]. */
  readonly cachedPriceRatio: number;
}

interface CacheTermsRow extends CacheTerms {
  /** Model names starting with this (after normalisation) get the row; the longest match wins. */
  readonly family: string;
}

/** The day the rows were last checked against the providers' pages. */
export const CACHE_TERMS_CHECKED = '2026-11-27';

/**
 * Gemini's implicit cache (on by default from 2.5), OpenAI's automatic prompt
 * cache, and Anthropic's explicit one (it caches only where the request marks
 * a breakpoint, and bills a cache write at 1.25x, which this table does not
 * carry). Rows for providers other than Google serve custom `BaseLlm`s.
 */
export const CACHE_TERMS: readonly CacheTermsRow[] = [
  // Google's pages give 1,024 (Flash), 2,048 and 4,096 (Pro) over time; the newest gives 2,048 for both.
  { family: 'gemini-2.5', minCachedPrefixTokens: 2_048, cachedPriceRatio: 0.1 },
  { family: 'gemini-3', minCachedPrefixTokens: 4_096, cachedPriceRatio: 0.1 },
  { family: 'gpt-4o', minCachedPrefixTokens: 1_024, cachedPriceRatio: 0.5 },
  { family: 'o1', minCachedPrefixTokens: 1_024, cachedPriceRatio: 0.5 },
  { family: 'claude', minCachedPrefixTokens: 1_024, cachedPriceRatio: 0.1 },
  { family: 'claude-sonnet-4-6', minCachedPrefixTokens: 2_048, cachedPriceRatio: 0.1 },
  { family: 'claude-opus-4-5', minCachedPrefixTokens: 4_096, cachedPriceRatio: 0.1 },
  { family: 'claude-opus-4-6', minCachedPrefixTokens: 4_096, cachedPriceRatio: 0.1 },
  { family: 'claude-haiku-4-5', minCachedPrefixTokens: 4_096, cachedPriceRatio: 0.1 },
  { family: 'claude-3-5-haiku', minCachedPrefixTokens: 2_048, cachedPriceRatio: 0.1 },
  { family: 'claude-3-haiku', minCachedPrefixTokens: 2_048, cachedPriceRatio: 0.1 },
];

/**
 * The Gemini 2.5 row's minimum, which the guard's masking decisions use for
 * every model (they do not read the table per model yet).
 */
export const MIN_CACHED_PREFIX_TOKENS = 2_048;

/**
 * Cached over uncached price assumed for a model whose cached price is not
 * known: Gemini 2.5's discount, the deepest of the common providers, which
 * makes any change that breaks the cache look as dear as it can be.
 */
export const DEFAULT_CACHED_PRICE_RATIO = 0.1;

/**
 * Output over uncached input price assumed for a model with no price: Gemini 2.5 Flash's
 * (`DEFAULT_PRICES`), the package's home model. What a summary's output costs in a
 * reduction's trade (masking/room-reduction-cost.ts).
 */
const HOME_PRICE = DEFAULT_PRICES['gemini-2.5-flash'] as ModelPrice;
export const DEFAULT_OUTPUT_PRICE_RATIO: number = HOME_PRICE.output / HOME_PRICE.input;

/** What the cache and the output cost a model's calls, relative to its uncached input. */
interface PriceRatios {
  readonly cachedPriceRatio: number;
  readonly outputPriceRatio: number;
}

/**
 * A price's ratios; without a cached price, the cached ratio of `model`'s family row (the table `cacheTermsFor`
 * reads: an OpenAI model's cache is read at half price, not at Gemini's tenth), else the default.
 */
export function priceRatiosOf(price: ModelPrice | undefined, model?: string): PriceRatios {
  const cached = price?.cachedInput !== undefined ? cachedPriceRatio(price) : familyRow(model)?.cachedPriceRatio;
  return { cachedPriceRatio: cached ?? DEFAULT_CACHED_PRICE_RATIO, outputPriceRatio: outputPriceRatio(price) };
}

/** The model's output price as a multiple of its uncached input price; the default ratio without a usable price. */
export function outputPriceRatio(price: ModelPrice | undefined): number {
  if (price === undefined || !(price.input > 0) || !(price.output >= 0)) return DEFAULT_OUTPUT_PRICE_RATIO;
  return price.output / price.input;
}

/** Terms for a model no row knows: Gemini 2.5's (the package's home provider). */
const DEFAULT_CACHE_TERMS: CacheTerms = {
  minCachedPrefixTokens: MIN_CACHED_PREFIX_TOKENS,
  cachedPriceRatio: DEFAULT_CACHED_PRICE_RATIO,
};

/**
 * The model's cached price as a share of its uncached one, in [0, 1]; 1 (no
 * discount) for a model priced at 0, where there is nothing to save by caching.
 */
export function cachedPriceRatio(price: ModelPrice | undefined): number {
  if (price?.cachedInput === undefined) return DEFAULT_CACHED_PRICE_RATIO;
  if (!(price.input > 0)) return 1;
  return Math.min(1, Math.max(0, price.cachedInput / price.input));
}

function familyRow(model: string | undefined): CacheTerms | undefined {
  if (!model) return undefined;
  const name = normalizeModelName(model);
  let best: CacheTermsRow | undefined;
  for (const row of CACHE_TERMS)
    if (name.startsWith(row.family) && (best === undefined || row.family.length > best.family.length)) best = row;
  return best;
}

/**
 * The cache terms of `model`: its family's row (Gemini 2.5's when none), with
 * what its price entry says over it: `minCachedPrefixTokens`, and the ratio of
 * `cachedInput` to `input` when the entry has a cached price. A `RoutedLlm`'s
 * name gets the least any of its models' caches gives: which answered a call is
 * not told.
 */
export function cacheTermsFor(model: string | undefined, prices?: PriceTable): CacheTerms {
  const members = model === undefined ? undefined : routedMembers(model);
  // A price given for the router's own name states its terms.
  if (model !== undefined && members && !exactPriceFor(model, prices))
    return leastOf(members.map((member) => cacheTermsFor(member, prices)));
  const row = familyRow(model) ?? DEFAULT_CACHE_TERMS;
  const price = priceFor(model, prices);
  return {
    minCachedPrefixTokens: price?.minCachedPrefixTokens ?? row.minCachedPrefixTokens,
    cachedPriceRatio: price?.cachedInput !== undefined ? cachedPriceRatio(price) : row.cachedPriceRatio,
  };
}

function leastOf(terms: readonly CacheTerms[]): CacheTerms {
  return {
    minCachedPrefixTokens: Math.max(...terms.map((each) => each.minCachedPrefixTokens)),
    cachedPriceRatio: Math.max(...terms.map((each) => each.cachedPriceRatio)),
  };
}
