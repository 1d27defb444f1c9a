import { describe, expect, it } from 'vitest';
import { CapturingLogger } from '../../testing/index.js';
import { guardParts } from './guard-parts.js';

const tokenizer = { name: 'chars', count: (text: string) => text.length };
const history = (label: string) => [{ role: 'user', parts: [{ text: `${label}: ${'x'.repeat(400)}` }] }];

describe('guardParts', () => {
  it('should bound the measured history by the measureCacheTokens option', () => {
    const bounded = guardParts({ measureCacheTokens: 600 }, new CapturingLogger()).measures;
    const unbounded = guardParts({}, new CapturingLogger()).measures;
    for (const cache of [bounded, unbounded])
      for (const session of ['a', 'b', 'c']) cache.measure(`${session}\u0000worker`, history(session), tokenizer);
    // About 400 tokens a session: one fits under 600 with the one in use; the default keeps all three.
    expect(bounded.sessionCount).toBe(1);
    expect(unbounded.sessionCount).toBe(3);
  });
});
