/**
 * The guard's tokenizer: the option's, checked so that a bad count is replaced by the
 * built-in one and reported once (never with the text it counted).
 */
import { checkedTokenizer } from '../../estimate/checked-tokenizer.js';
import { tiktokenTokenizer, type Tokenizer } from '../../estimate/tokenizer.js';
import type { GuardLogger } from '../../options.js';
import { errorKind } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

export function guardTokenizer(tokenizer: Tokenizer | undefined, logger: GuardLogger): Tokenizer {
  const chosen = tokenizer ?? tiktokenTokenizer;
  return checkedTokenizer(chosen, (value) => {
    logger.warn(
      `${LOG_PREFIX} tokenizer '${chosen.name}' returned ${describeCount(value)}, not a token count; such counts are replaced by the built-in count (reported once).`,
    );
    // A thrown error's message can quote the text it counted: only at debug (see logging/failure-log.ts).
    if (value instanceof Error) logger.debug(`${LOG_PREFIX} tokenizer '${chosen.name}' error:`, value);
  });
}

/** A bad tokenizer count for a log line (never the text it counted). */
function describeCount(value: unknown): string {
  if (value instanceof Error) return `an error (${errorKind(value)})`;
  return typeof value === 'number' ? String(value) : typeof value;
}
