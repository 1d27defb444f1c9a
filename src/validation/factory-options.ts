/**
 * The options of the package's other public factories (`contextRecallTool`, `withArtifactOffload`,
 * `loadInstructions`, `AgentsMdInstructionsPlugin`), checked as `new ContextGuard()` checks its own: a value out of
 * range or a misspelt key throws at construction, naming the factory and the field (review 32: `maxHits: 0` made
 * every recall answer "no hits", `maxBytes: -1` was taken).
 */
import type { OptionRange } from '../config/option-spec.js';
import { isPlainObject } from '../config/plain-object.js';
import { unknownField } from '../config/unknown-field.js';
import { ContextGuardConfigError } from '../errors.js';
import { checkRange } from './check-range.js';

/** What one field accepts: a range of the option table's kinds, or one of a few shapes. */
export type FieldCheck = OptionRange | 'text' | 'toolName' | 'texts' | 'logger' | 'function' | 'any';

/**
 * Checks `options` of `owner` (`'contextRecallTool()'`, say) field by field; `undefined` fields are left to their
 * defaults.
 * @throws ContextGuardConfigError naming the field.
 */
export function checkFactoryOptions(
  owner: string,
  options: unknown,
  fields: Readonly<Record<string, FieldCheck>>,
): void {
  if (options === undefined) return;
  if (!isPlainObject(options)) throw new ContextGuardConfigError('options', options, 'must be an object', owner);
  const unknown = unknownField(options, Object.keys(fields));
  if (unknown)
    throw new ContextGuardConfigError(unknown.key, unknown.value, `is not an option (${unknown.hint})`, owner);
  for (const [key, check] of Object.entries(fields)) {
    const value = options[key];
    if (value !== undefined) checkField(owner, key, value, check);
  }
}

function checkField(owner: string, key: string, value: unknown, check: FieldCheck): void {
  const refuse = (expectation: string): never => {
    throw new ContextGuardConfigError(key, value, expectation, owner);
  };
  if (check === 'any') return;
  if (check === 'text') {
    if (typeof value !== 'string' || value.trim().length === 0) refuse('must be a non-empty string');
  } else if (check === 'toolName') {
    // Gemini's function names (@google/genai's FunctionDeclaration): a letter or '_', then letters, digits, '_', '.',
    // ':' or '-', 128 at most (review 35: ':' and 65-128 were refused).
    if (typeof value !== 'string' || !/^[A-Za-z_][\w.:-]{0,127}$/.test(value))
      refuse("must be a tool name (a letter or '_', then letters, digits, '_', '.', ':' or '-'; 128 at most)");
  } else if (check === 'texts') {
    if (!Array.isArray(value) || !value.every((each) => typeof each === 'string' && each.length > 0))
      refuse('must be an array of non-empty strings');
  } else if (check === 'function') {
    if (typeof value !== 'function') refuse('must be a function');
  } else if (check === 'logger') {
    if (!isLogger(value)) refuse('must be a logger with debug and warn methods');
  } else checkRange(key, value, check, owner);
}

function isLogger(value: unknown): boolean {
  const logger = value as { debug?: unknown; warn?: unknown } | null;
  return (
    typeof logger === 'object' &&
    logger !== null &&
    typeof logger.warn === 'function' &&
    typeof logger.debug === 'function'
  );
}
