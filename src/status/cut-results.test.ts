import { describe, expect, it } from 'vitest';
import { countCutResults } from './cut-results.js';

const cutBy = (author: string) => ({
  author,
  actions: { stateDelta: { [`context_guard:${author}:tool_truncations`]: { count: 1 } } },
});

describe('countCutResults', () => {
  it("should count one cut per event holding the agent's own record in its state delta", () => {
    const events = [cutBy('worker'), cutBy('worker'), cutBy('helper'), { author: 'worker', actions: {} }];
    expect(countCutResults(events)).toEqual(
      new Map([
        ['worker', 2],
        ['helper', 1],
      ]),
    );
  });

  it("should not count another agent's record, nor events of any other shape", () => {
    const foreign = { author: 'worker', actions: { stateDelta: { 'context_guard:helper:tool_truncations': {} } } };
    expect(countCutResults([foreign, null, 'event', { author: 3, actions: cutBy('x').actions }, {}])).toEqual(
      new Map(),
    );
    expect(countCutResults(undefined)).toEqual(new Map());
  });
});
