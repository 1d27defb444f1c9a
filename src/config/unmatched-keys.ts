/**
 * Keys of an option keyed by names the user writes (agents, models, tools) that name nothing of
 * the app: a misspelt name is valid at construction, and its settings would apply to nothing,
 * silently. One rule for every such option; each says in its own words what was missed.
 */
import { didYouMean } from './closest-name.js';

interface UnmatchedKey {
  readonly key: string;
  /** ` Did you mean 'name'?` for the closest of the app's names, or ''. */
  readonly hint: string;
}

/** The keys no name matches (`matches`: exact equality unless the option matches otherwise), in key order. */
export function unmatchedKeys(
  keys: readonly string[],
  names: readonly string[],
  matches: (key: string, name: string) => boolean = (key, name) => key === name,
): UnmatchedKey[] {
  return keys
    .filter((key) => !names.some((name) => matches(key, name)))
    .map((key) => ({ key, hint: didYouMean(key, names) }));
}
