/**
 * `agents` entries that name no agent of the app: their settings would apply
 * to no agent, silently (a misspelt `wroker` leaves `worker` on the defaults).
 * Pure: the shell lists the app's agent names and logs what this returns.
 */
import { didYouMean } from './closest-name.js';

/** At most this many of the app's agent names are listed in a warning. */
const LISTED_NAMES = 12;

interface UnmatchedAgent {
  readonly key: string;
  readonly message: string;
}

export function unmatchedAgents(keys: readonly string[], names: readonly string[]): UnmatchedAgent[] {
  const known = new Set(names);
  const listed = names.slice(0, LISTED_NAMES).map((name) => `'${name}'`);
  const more = names.length > LISTED_NAMES ? `, and ${names.length - LISTED_NAMES} more` : '';
  return keys
    .filter((key) => !known.has(key))
    .map((key) => {
      const hint = didYouMean(key, names);
      return {
        key,
        message:
          `ContextGuard: the option agents.${key} names no agent of this app (its agents: ${listed.join(', ')}${more}), ` +
          `so its settings apply to no agent; agents are matched by their exact name.${hint}`,
      };
    });
}
