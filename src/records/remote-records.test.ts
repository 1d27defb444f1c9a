import { describe, expect, it } from 'vitest';
import { CALL_METADATA_KEY } from './call-record.js';
import { COMPACTION_METADATA_KEY } from './compaction-record.js';
import { cameThroughA2a, splitGuardRecords } from './remote-records.js';

describe('remote records', () => {
  it("should tell an event ADK's A2A client made by its a2a: keys", () => {
    expect(cameThroughA2a({ 'a2a:response': {}, [CALL_METADATA_KEY]: 'x' })).toBe(true);
    expect(cameThroughA2a({ [CALL_METADATA_KEY]: 'x', a2a: 1 })).toBe(false);
    expect(cameThroughA2a(undefined)).toBe(false);
  });

  it("should part the guard's records from the rest of the metadata", () => {
    expect(splitGuardRecords({ [CALL_METADATA_KEY]: 'c', [COMPACTION_METADATA_KEY]: { r: 1 }, team: 'a' })).toEqual({
      records: { [CALL_METADATA_KEY]: 'c', [COMPACTION_METADATA_KEY]: { r: 1 } },
      rest: { team: 'a' },
    });
    expect(splitGuardRecords({ [CALL_METADATA_KEY]: 'c' })).toEqual({
      records: { [CALL_METADATA_KEY]: 'c' },
      rest: undefined,
    });
    expect(splitGuardRecords({ team: 'a' })).toBeUndefined();
    expect(splitGuardRecords(undefined)).toBeUndefined();
  });
});
