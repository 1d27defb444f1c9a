import { describe, expect, it } from 'vitest';
import { CapturingLogger, type LogLine } from './capturing-logger.js';

describe('CapturingLogger', () => {
  it('should pass every line to onLine, past the limit of lines it keeps', () => {
    const seen: LogLine[] = [];
    const logger = new CapturingLogger({ limit: 1, onLine: (line) => seen.push(line) });
    logger.info('first');
    logger.warn('second');
    logger.error('third');
    expect(logger.lines.map((line) => line.message)).toEqual(['first']);
    expect(seen.map((line) => line.message)).toEqual(['first', 'second', 'third']);
    expect(logger.counts).toMatchObject({ info: 1, warn: 1, error: 1 });
  });
});
