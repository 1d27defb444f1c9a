/**
 * A prepared summary the decision may not apply is waste the provider billed: counted once, where it was made
 * (review 30: a replica dropping another's stored preparation, and the maker dropping it again, counted it twice).
 */
import { describe, expect, it } from 'vitest';
import { modelText, userText } from '../../test/support/builders.js';
import { guardInput } from '../../test/support/guard-input.js';
import type { PreparedHandle } from '../preparation/prepared-summary.js';
import { guardRequest } from './guard-request.js';

const contents = [userText('Start.'), modelText('Started.'), userText('Go on.')];

/** A preparation that extends a summary the session no longer holds: invalid on any call. */
function stale(fields: Partial<PreparedHandle> = {}): PreparedHandle {
  return {
    previous: 'a summary since replaced',
    watermark: { covered: 2, anchor: 'x' },
    take: async () => ({ prepared: undefined, waitedMs: 0 }),
    ...fields,
  };
}

describe('a prepared summary dropped', () => {
  it("should count the drop of this process's own preparation, once, in the state and the call's counts", async () => {
    const result = await guardRequest(guardInput({ contents, prepared: stale() }));
    expect(result.preparedDropped).toBe('the summary it extends is no longer the stored one');
    expect(result.counts.droppedPreparations).toBe(1);
    expect(result.state.usage.droppedPreparations).toBe(1);
  });

  it('should drop but not count a preparation another process made: that one counts it', async () => {
    const result = await guardRequest(guardInput({ contents, prepared: stale({ madeElsewhere: true }) }));
    expect(result.preparedDropped).toBe('the summary it extends is no longer the stored one');
    expect(result.counts.droppedPreparations).toBe(0);
    expect(result.state.usage.droppedPreparations).toBe(0);
  });
});
