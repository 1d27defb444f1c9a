/**
 * `priceFor` by model name, looked up once per name. The table is the guard's `prices` option, fixed when
 * the guard is built (as for the price ratios, adk/hooks/guard-parts.ts); a name neither table lists
 * exactly (a versioned name, a model with no price) walks both, normalising every key, and every answer
 * of the model asks for its price.
 */
import { BoundedMap } from '../collections/bounded-map.js';
import { priceFor, type ModelPrice, type PriceTable } from './price-table.js';

/** Model names whose price is kept; past it the least recently looked up is dropped (and looked up again). */
const MAX_MODELS = 1_000;

export function priceLookup(table?: PriceTable): (model: string | undefined) => ModelPrice | undefined {
  // `null`: looked up, no price.
  const known = new BoundedMap<string, ModelPrice | null>(MAX_MODELS);
  return (model) => {
    if (!model) return undefined;
    const kept = known.get(model);
    if (kept !== undefined) return kept ?? undefined;
    const price = priceFor(model, table);
    known.set(model, price ?? null);
    return price;
  };
}
