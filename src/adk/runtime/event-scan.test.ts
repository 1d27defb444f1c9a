import { describe, expect, it } from 'vitest';
import { resumeAt, scanEnd } from './event-scan.js';

const events = (...ids: string[]) => ids.map((id) => ({ id }));

describe('resumeAt', () => {
  it('should resume where the last list ended when it is still the head of the new one', () => {
    const known = scanEnd(events('a', 'b'));
    expect(resumeAt(events('a', 'b', 'c'), known)).toBe(2);
  });

  it('should read afresh a list whose head is not what was read, a shorter one, or with nothing read', () => {
    const known = scanEnd(events('a', 'b'));
    expect(resumeAt(events('a', 'x', 'c'), known)).toBe(0);
    expect(resumeAt(events('a'), known)).toBe(0);
    expect(resumeAt(events('a', 'b'), undefined)).toBe(0);
    expect(resumeAt(events('a'), scanEnd([]))).toBe(0);
  });
});
