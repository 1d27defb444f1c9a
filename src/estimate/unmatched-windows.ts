/**
 * `modelWindows` entries that name no model of the app: a misspelt model name
 * (`gemini-2.5-flsh`) leaves the model on the registry's window, or on
 * `defaultContextWindow`, silently. Pure: the shell lists the app's agents'
 * and summarizers' model names and logs what this returns.
 */
import { unmatchedKeys } from '../config/unmatched-keys.js';
import { LOG_PREFIX } from '../logging/log-prefix.js';
import { keyNamesModel } from './model-registry.js';

interface UnmatchedWindow {
  readonly key: string;
  readonly message: string;
}

export function unmatchedWindows(keys: readonly string[], models: readonly string[]): UnmatchedWindow[] {
  if (models.length === 0) return [];
  const listed = models.map((model) => `'${model}'`).join(', ');
  return unmatchedKeys(keys, models, keyNamesModel).map(({ key, hint }) => ({
    key,
    message:
      `${LOG_PREFIX} the option modelWindows['${key}'] names no model this app uses (its agents' and summarizers' ` +
      `models: ${listed}), so their windows come from the model registry; a window applies to the model whose name ` +
      `equals the key as written, or once 'models/' and versions are removed and letters lowered.${hint}`,
  }));
}
