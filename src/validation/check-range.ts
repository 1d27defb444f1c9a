/** The check of a value against a range of the option table, with the message that says what is accepted. */
import type { OptionRange } from '../config/option-spec.js';
import { ContextGuardConfigError } from '../errors.js';

/** Checks a value against a range of the option table. */
export function checkRange(path: string, value: unknown, range: OptionRange): void {
  switch (range.type) {
    case 'integer': {
      const ok =
        typeof value === 'number' &&
        Number.isInteger(value) &&
        value >= range.min &&
        (range.max === undefined || value <= range.max);
      if (!ok)
        throw new ContextGuardConfigError(
          path,
          value,
          range.max === undefined
            ? `must be an integer >= ${range.min}`
            : `must be an integer in [${range.min}, ${range.max}]`,
        );
      return;
    }
    case 'number': {
      const ok =
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (range.minInclusive ? value >= range.min : value > range.min) &&
        value <= range.max;
      if (!ok)
        throw new ContextGuardConfigError(
          path,
          value,
          `must be a number in ${range.minInclusive ? '[' : '('}${range.min}, ${range.max}]`,
        );
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw new ContextGuardConfigError(path, value, 'must be a boolean');
      return;
    case 'enum':
      if (typeof value !== 'string' || !range.values.includes(value)) {
        throw new ContextGuardConfigError(
          path,
          value,
          `must be one of ${range.values.map((v) => `'${v}'`).join(', ')}`,
        );
      }
      return;
    case 'other':
      return;
  }
}
