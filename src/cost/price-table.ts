/**
 * Prices of model calls, per million tokens, and the lookup by model name.
 * The default table's figures and their sources are in docs/observability.md
 * (one source for each fact); an application overrides or extends it with the
 * `prices` option.
 */
import { unknownField } from '../config/unknown-field.js';
import { normalizeModelName } from '../estimate/model-registry.js';
import { routedMembers } from '../estimate/routed-model.js';

/** USD per million tokens. */
export interface ModelPrice {
  /** Prompt tokens not served from the cache. */
  readonly input: number;
  /** Prompt tokens served from the (implicit or explicit) cache; absent: unknown, billed as `input`. */
  readonly cachedInput?: number | undefined;
  /** Output tokens (thinking included). */
  readonly output: number;
  /**
   * Tokens: the shortest repeated prefix the provider serves from its cache for this model;
   * absent: the model family's figure in the cache-terms table (cache-terms.ts).
   */
  readonly minCachedPrefixTokens?: number | undefined;
  /** A dearer tier for prompts over `threshold` tokens (Gemini 2.5 Pro above 200k). */
  readonly longContext?:
    | {
        readonly threshold: number;
        readonly input: number;
        readonly cachedInput?: number | undefined;
        readonly output: number;
      }
    | undefined;
}

/** Prices by model name; a key also matches longer names that start with it (`gemini-2.5-flash` matches `gemini-2.5-flash-001`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** List prices of the Gemini Developer API (Standard tier, text); sources and dates in docs/observability.md. */
export const DEFAULT_PRICES: PriceTable = {
  'gemini-2.5-pro': {
    input: 1.25,
    cachedInput: 0.125,
    output: 10,
    longContext: { threshold: 200_000, input: 2.5, cachedInput: 0.25, output: 15 },
  },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.01, output: 0.4 },
  'gemini-3.1-pro-preview': { input: 2, output: 12, longContext: { threshold: 200_000, input: 4, output: 18 } },
  'gemini-3.5-flash': { input: 1.5, output: 9 },
  'gemini-3.5-flash-lite': { input: 0.3, output: 2.5 },
};

/**
 * The price of `model`: an exact (normalised) name, the application's `table`
 * before the defaults; else the longest key the name starts with, over both
 * tables (the application's on a tie). A shorter key of the application's
 * never shadows a longer default that fits better: pricing `gemini-2.5-flash`
 * leaves `gemini-2.5-flash-lite` at its own price. `undefined` when nobody
 * knows the model.
 */
export function priceFor(model: string | undefined, table?: PriceTable): ModelPrice | undefined {
  if (!model) return undefined;
  const exact = exactPriceFor(model, table);
  if (exact) return exact;
  const name = normalizeModelName(model);
  const sources = table ? [table, DEFAULT_PRICES] : [DEFAULT_PRICES];
  const members = routedMembers(model);
  if (members) return samePrice(members.map((member) => priceFor(member, table)));
  let best: { readonly key: string; readonly price: ModelPrice } | undefined;
  for (const source of sources) {
    for (const [key, price] of Object.entries(source)) {
      const prefix = normalizeModelName(key);
      if (startsWithKey(name, prefix) && (best === undefined || prefix.length > best.key.length))
        best = { key: prefix, price };
    }
  }
  return best?.price;
}

/** The price an entry gives `model` by its name as written or normalised, the application's before the defaults. */
export function exactPriceFor(model: string, table?: PriceTable): ModelPrice | undefined {
  const name = normalizeModelName(model);
  for (const source of table ? [table, DEFAULT_PRICES] : [DEFAULT_PRICES]) {
    const exact = source[model] ?? source[name];
    if (exact) return exact;
  }
  return undefined;
}

/**
 * A `RoutedLlm`'s price: its models' when they all have the same (a failover between two endpoints of one model);
 * else unknown, as which of them answered a call is not told (review 11).
 */
function samePrice(prices: readonly (ModelPrice | undefined)[]): ModelPrice | undefined {
  const [first] = prices;
  const same = (price: ModelPrice | undefined): boolean => JSON.stringify(price) === JSON.stringify(first);
  return first !== undefined && prices.every(same) ? first : undefined;
}

/** `name` (normalised) starts with the normalised key `prefix`; an empty key prices nothing. */
const startsWithKey = (name: string, prefix: string): boolean => prefix.length > 0 && name.startsWith(prefix);

/** Whether the price key `key` applies to `model` at all (priceFor's rule, whichever key wins). */
export function keyPricesModel(key: string, model: string): boolean {
  return model === key || startsWithKey(normalizeModelName(model), normalizeModelName(key));
}

/** The fields of a `ModelPrice`, and of its `longContext` tier: any other key in an application's table is a misspelling. */
const PRICE_FIELDS: readonly string[] = ['input', 'cachedInput', 'output', 'minCachedPrefixTokens', 'longContext'];
const TIER_FIELDS: readonly string[] = ['threshold', 'input', 'cachedInput', 'output'];

/** What is wrong with a table entry, a path below it and the reason. */
interface PriceProblem {
  readonly field: string;
  readonly value: unknown;
  readonly reason: string;
}

const RATE_REASON = 'must be a finite number >= 0 (USD per million tokens)';
const isRate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function unknownPriceField(
  entry: Record<string, unknown>,
  fields: readonly string[],
  path: string,
): PriceProblem | undefined {
  const unknown = unknownField(entry, fields);
  return (
    unknown && {
      field: `${path}.${unknown.key}`,
      value: unknown.value,
      reason: `is not a price field (${unknown.hint})`,
    }
  );
}

/** The rates of a price or of its long-context tier: `input` and `output` required, `cachedInput` at most `input`. */
function rateProblem(entry: Record<string, unknown>, path: string): PriceProblem | undefined {
  for (const key of ['input', 'output'] as const)
    if (!isRate(entry[key])) return { field: `${path}.${key}`, value: entry[key], reason: RATE_REASON };
  const cached = entry['cachedInput'];
  if (cached === undefined) return undefined;
  if (!isRate(cached)) return { field: `${path}.cachedInput`, value: cached, reason: RATE_REASON };
  if (cached > Number(entry['input']))
    return {
      field: `${path}.cachedInput`,
      value: cached,
      reason: `must not be above input (${String(entry['input'])}): a cached token is never dearer (were the two swapped?)`,
    };
  return undefined;
}

function tierProblem(tier: unknown, path: string): PriceProblem | undefined {
  if (typeof tier !== 'object' || tier === null || Array.isArray(tier))
    return { field: path, value: tier, reason: 'must be { threshold, input, cachedInput?, output }' };
  const entry = tier as Record<string, unknown>;
  const threshold = entry['threshold'];
  if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 1)
    return { field: `${path}.threshold`, value: threshold, reason: 'must be a whole number of prompt tokens >= 1' };
  return unknownPriceField(entry, TIER_FIELDS, path) ?? rateProblem(entry, path);
}

function minPrefixProblem(value: unknown, path: string): PriceProblem | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0)) return undefined;
  return {
    field: `${path}.minCachedPrefixTokens`,
    value,
    reason: 'must be a whole number of tokens >= 0 (the shortest prefix the provider caches)',
  };
}

function entryProblem(model: string, price: unknown): PriceProblem | undefined {
  if (model.trim().length === 0)
    return { field: `.${model}`, value: price, reason: 'names no model: an empty key would price every model' };
  if (typeof price !== 'object' || price === null || Array.isArray(price))
    return {
      field: `.${model}`,
      value: price,
      reason: 'must be { input, cachedInput?, output } in USD per million tokens',
    };
  const entry = price as Record<string, unknown>;
  const path = `.${model}`;
  return (
    unknownPriceField(entry, PRICE_FIELDS, path) ??
    rateProblem(entry, path) ??
    minPrefixProblem(entry['minCachedPrefixTokens'], path) ??
    (entry['longContext'] === undefined ? undefined : tierProblem(entry['longContext'], `${path}.longContext`))
  );
}

/** Why `table` is not a valid price table (field path and reason), or `undefined` when it is. */
export function priceTableProblem(table: unknown): PriceProblem | undefined {
  if (typeof table !== 'object' || table === null || Array.isArray(table))
    return { field: '', value: table, reason: 'must be an object of { modelName: { input, cachedInput?, output } }' };
  for (const [model, price] of Object.entries(table as Record<string, unknown>)) {
    const problem = entryProblem(model, price);
    if (problem) return problem;
  }
  return undefined;
}
