import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS, usageRecordArbitrary } from '../../test/support/arbitraries.js';
import { encodeRecord } from '../state/codec.js';
import { EMPTY_USAGE, encodeUsageRecord, readUsageRecord, type UsageRecord } from './stored-usage.js';
import { readUsage, writeUsage } from '../adk/runtime/state-writer.js';
import { stateKeysFor } from '../state/keys.js';

/** Session state as a replica holds it: a map of keys to the objects last set. */
function stateOf(): { get(key: string): unknown; set(key: string, value: unknown): void } {
  const values = new Map<string, unknown>();
  return { get: (key) => values.get(key), set: (key, value) => void values.set(key, value) };
}

describe('encodeUsageRecord', () => {
  it('should keep for the written object the decode a read makes, not the record written', () => {
    // A count of 0 reads back as missing: the written record is not its own decode.
    const usage: UsageRecord = { ...EMPTY_USAGE, modelCalls: 3, realPromptTokens: 0, lastEstimate: 0 };
    const read = readUsageRecord(encodeUsageRecord(usage));
    expect(read).toEqual(readUsageRecord({ ...encodeRecord(usage) }));
    expect(read.usage.lastEstimate).toBeUndefined();
  });

  it('should read any written record as a fresh decode of a copy would', () => {
    fc.assert(
      fc.property(usageRecordArbitrary, (usage) => {
        expect(readUsageRecord(encodeUsageRecord(usage))).toEqual(readUsageRecord({ ...encodeRecord(usage) }));
      }),
      PROPERTY_RUNS,
    );
  });

  it('should read a written record edited in place as it is now', () => {
    const encoded = encodeUsageRecord({ ...EMPTY_USAGE, modelCalls: 3, lastEstimate: 900 });
    encoded['modelCalls'] = 4;
    delete encoded['lastEstimate'];
    const { usage } = readUsageRecord(encoded);
    expect(usage.modelCalls).toBe(4);
    expect(usage.lastEstimate).toBeUndefined();
  });

  it("should read what another replica wrote since, and keep one agent's record from another's", () => {
    const state = stateOf();
    writeUsage(state, 'worker', { ...EMPTY_USAGE, modelCalls: 3 });
    writeUsage(state, 'helper', { ...EMPTY_USAGE, modelCalls: 7 });
    expect(readUsage(state, 'worker').modelCalls).toBe(3);
    // Another replica's write reaches this one as another object (state is the truth, the memo only a cache).
    state.set(stateKeysFor('worker').usage, { ...encodeRecord({ ...EMPTY_USAGE, modelCalls: 5 }) });
    expect(readUsage(state, 'worker').modelCalls).toBe(5);
    expect(readUsage(state, 'helper').modelCalls).toBe(7);
  });
});
