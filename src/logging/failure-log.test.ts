import { describe, expect, it } from 'vitest';
import { errorKind, logFailure } from './failure-log.js';
import { CapturingLogger } from '../testing/capturing-logger.js';

const SECRET = 'SECRET-4b1d-opensesame';

describe('errorKind', () => {
  it('should name the class and a constant code, never the message', () => {
    class StorageError extends Error {
      readonly code = 'ETIMEDOUT';
    }
    expect(errorKind(new StorageError(`could not write ${SECRET}`))).toBe('StorageError (code ETIMEDOUT)');
    expect(errorKind(Object.assign(new Error(SECRET), { code: 400 }))).toBe('Error (code 400)');
    expect(errorKind(new TypeError(SECRET))).toBe('TypeError');
  });

  it('should show neither a name nor a code that data could have set', () => {
    const error = Object.assign(new Error(SECRET), { name: SECRET, code: `near "${SECRET}"` });
    expect(errorKind(error)).toBe('Error');
    expect(errorKind(SECRET)).toBe('a thrown string');
    expect(errorKind({ message: SECRET })).toBe('Object');
    expect(errorKind(Object.create(null))).toBe('Error');
    expect(errorKind(undefined)).toBe('a thrown undefined');
  });
});

describe('logFailure', () => {
  it('should log the fixed message and the kind at its level, and the error itself only at debug', () => {
    const logger = new CapturingLogger();
    logFailure(logger, 'warn', '[context_guard] could not store it.', new RangeError(SECRET));
    expect(logger.atOrAbove('info').map((line) => line.message)).toEqual([
      '[context_guard] could not store it. (RangeError; details at debug level)',
    ]);
    expect(logger.lines.filter((line) => line.level === 'debug' && line.message.includes(SECRET))).toHaveLength(1);
  });
});
