/**
 * Prices of model calls, per million tokens, and the lookup by model name.
 * The default table's figures and their sources are in docs/observability.md
 * (one source for each fact); an application overrides or extends it with the
 * `prices` option.
 */
import { closestName } from '../config/closest-name.js';
import { normalizeModelName } from '../estimate/model-registry.js';

/** USD per million tokens. */
export interface ModelPrice {
  /** Prompt tokens not served from the cache. */
  readonly input: number;
  /** Prompt tokens served from the (implicit or explicit) cache; absent: unknown, billed as `input`. */
  readonly cachedInput?: number | undefined;
  /** Output tokens (thinking included). */
  readonly output: number;
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
 * The price of `model`: the application's `table` first, then the defaults;
 * in each, the exact (normalised) name, else the longest key the name starts
 * with. `undefined` when nobody knows the model.
 */
export function priceFor(model: string | undefined, table?: PriceTable): ModelPrice | undefined {
  if (!model) return undefined;
  const name = normalizeModelName(model);
  for (const source of table ? [table, DEFAULT_PRICES] : [DEFAULT_PRICES]) {
    const exact = source[model] ?? source[name];
    if (exact) return exact;
    let best: string | undefined;
    for (const key of Object.keys(source)) {
      if (name.startsWith(normalizeModelName(key)) && (best === undefined || key.length > best.length)) best = key;
    }
    if (best !== undefined) return source[best];
  }
  return undefined;
}

/** The fields of a `ModelPrice`: any other key in an application's table is a misspelling. */
const PRICE_FIELDS: readonly string[] = ['input', 'cachedInput', 'output', 'longContext'];

/** Why `table` is not a valid price table (field path and reason), or `undefined` when it is. */
export function priceTableProblem(
  table: unknown,
): { readonly field: string; readonly value: unknown; readonly reason: string } | undefined {
  if (typeof table !== 'object' || table === null || Array.isArray(table))
    return { field: '', value: table, reason: 'must be an object of { modelName: { input, cachedInput?, output } }' };
  const rate = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0;
  for (const [model, price] of Object.entries(table as Record<string, unknown>)) {
    if (typeof price !== 'object' || price === null)
      return {
        field: `.${model}`,
        value: price,
        reason: 'must be { input, cachedInput?, output } in USD per million tokens',
      };
    const entry = price as Record<string, unknown>;
    const unknown = Object.keys(entry).find((key) => !PRICE_FIELDS.includes(key));
    if (unknown !== undefined) {
      const closest = closestName(unknown, PRICE_FIELDS);
      const hint = closest === undefined ? `fields: ${PRICE_FIELDS.join(', ')}` : `did you mean '${closest}'?`;
      return { field: `.${model}.${unknown}`, value: entry[unknown], reason: `is not a price field (${hint})` };
    }
    for (const key of ['input', 'output'] as const) {
      if (!rate(entry[key]))
        return {
          field: `.${model}.${key}`,
          value: entry[key],
          reason: 'must be a finite number >= 0 (USD per million tokens)',
        };
    }
    if (entry['cachedInput'] !== undefined && !rate(entry['cachedInput'])) {
      return {
        field: `.${model}.cachedInput`,
        value: entry['cachedInput'],
        reason: 'must be a finite number >= 0 (USD per million tokens)',
      };
    }
  }
  return undefined;
}
