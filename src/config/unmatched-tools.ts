/**
 * Keys of an option keyed by tool name (`tools`, `toolOutputTruncation.tools`, global or per
 * agent) that name no tool of the agents they apply to: a misspelt `serach` leaves `search`
 * undeclared or untruncated as configured, silently. Pure: the shell lists the tools and logs.
 */
import { listedNames } from './listed-names.js';
import { LOG_PREFIX } from '../logging/log-prefix.js';
import { unmatchedKeys } from './unmatched-keys.js';

interface UnmatchedTool {
  readonly key: string;
  readonly message: string;
}

/**
 * `option`: the option's path (`tools`, `agents.worker.toolOutputTruncation.tools`); `owner`: whose
 * tools `tools` are (`this app`, `agent 'worker'`).
 */
export function unmatchedTools(
  option: string,
  keys: readonly string[],
  tools: readonly string[],
  owner: string,
): UnmatchedTool[] {
  const listed = listedNames(tools);
  return unmatchedKeys(keys, tools).map(({ key, hint }) => ({
    key,
    message:
      `${LOG_PREFIX} the option ${option}.${key} names no tool of ${owner} (its tools: ${listed}), so its settings ` +
      `apply to no tool; tools are matched by their exact name.${hint}`,
  }));
}
