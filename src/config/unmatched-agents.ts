/**
 * `agents` entries that name no agent of the app: their settings would apply
 * to no agent, silently (a misspelt `wroker` leaves `worker` on the defaults).
 * Pure: the shell lists the app's agent names and logs what this returns.
 */
import { listedNames } from './listed-names.js';
import { LOG_PREFIX } from '../logging/log-prefix.js';
import { unmatchedKeys } from './unmatched-keys.js';

interface UnmatchedAgent {
  readonly key: string;
  readonly message: string;
}

export function unmatchedAgents(keys: readonly string[], names: readonly string[]): UnmatchedAgent[] {
  const listed = listedNames(names);
  return unmatchedKeys(keys, names).map(({ key, hint }) => ({
    key,
    message:
      `${LOG_PREFIX} the option agents.${key} names no agent of this app (its agents: ${listed}), ` +
      `so its settings apply to no agent; agents are matched by their exact name.${hint}`,
  }));
}
