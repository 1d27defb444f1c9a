/**
 * `prices` entries that price no model of the app: a misspelt model name
 * (`gemini-2.5-flsh`) leaves the model at the built-in price, or at none, and
 * the cost and the masking decisions that weigh the cached discount follow,
 * silently. Pure: the shell lists the app's agents' model names and logs what
 * this returns.
 */
import { unmatchedKeys } from '../config/unmatched-keys.js';
import { LOG_PREFIX } from '../logging/log-prefix.js';
import { keyPricesModel } from './price-table.js';

interface UnmatchedPrice {
  readonly key: string;
  readonly message: string;
}

export function unmatchedPrices(keys: readonly string[], models: readonly string[]): UnmatchedPrice[] {
  if (models.length === 0) return [];
  const listed = models.map((model) => `'${model}'`).join(', ');
  return unmatchedKeys(keys, models, keyPricesModel).map(({ key, hint }) => ({
    key,
    message:
      `${LOG_PREFIX} the option prices['${key}'] prices no model this app uses (its agents' and summarizers' ` +
      `models: ${listed}), so their costs and cache discounts come from the built-in table or are unknown; a ` +
      `price applies to the model names it equals or starts, after 'models/' and versions are removed.${hint}`,
  }));
}
