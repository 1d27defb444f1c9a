/** The check of a value against a range of the option table, with the message that says what is accepted. */
import type { OptionRange } from '../config/option-spec.js';
import { ContextGuardConfigError } from '../errors.js';

/** Checks a value against a range of the option table; `owner` names what takes the option (`ContextGuard`). */
export function checkRange(path: string, value: unknown, range: OptionRange, owner?: string): void {
  const expectation = unmet(value, range);
  if (expectation !== undefined) throw new ContextGuardConfigError(path, value, expectation, owner);
}

/** What `value` fails to be, or undefined when it is in `range`. */
function unmet(value: unknown, range: OptionRange): string | undefined {
  switch (range.type) {
    case 'integer': {
      const ok =
        typeof value === 'number' &&
        Number.isInteger(value) &&
        value >= range.min &&
        (range.max === undefined || value <= range.max);
      if (ok) return undefined;
      return range.max === undefined
        ? `must be an integer >= ${range.min}`
        : `must be an integer in [${range.min}, ${range.max}]`;
    }
    case 'number': {
      const ok =
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (range.minInclusive ? value >= range.min : value > range.min) &&
        value <= range.max;
      return ok ? undefined : `must be a number in ${range.minInclusive ? '[' : '('}${range.min}, ${range.max}]`;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'enum':
      return typeof value === 'string' && range.values.includes(value)
        ? undefined
        : `must be one of ${range.values.map((v) => `'${v}'`).join(', ')}`;
    case 'other':
      return undefined;
  }
}
