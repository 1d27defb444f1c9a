import { describe, expect, it } from 'vitest';
import { crowdedRoomNote } from './crowded-room.js';

describe('crowdedRoomNote', () => {
  it('should say nothing while the fixed part leaves a turn room under the threshold', () => {
    expect(crowdedRoomNote({ fixed: 2_000, threshold: 6_400, window: 8_000, turnTokens: 1_900 })).toBeUndefined();
    expect(crowdedRoomNote({ fixed: 2_000, threshold: 6_400, window: 8_000 })).toBeUndefined();
    // One large turn (a pasted log) under a small fixed part: the turn's doing, not the fixed part's (review 55).
    expect(crowdedRoomNote({ fixed: 110, threshold: 6_400, window: 8_000, turnTokens: 8_011 })).toBeUndefined();
    expect(crowdedRoomNote({ fixed: 3_300, threshold: 6_400, window: 8_000, turnTokens: 8_011 })).toBeUndefined();
  });

  it('should say so when the fixed part alone is at or over the threshold', () => {
    const note = crowdedRoomNote({ fixed: 7_328, threshold: 6_400, window: 8_000 });
    expect(note).toContain('~7328 tokens of the compaction threshold 6400 (window 8000), all of it');
  });

  it('should say so when the room left is less than one turn adds', () => {
    const note = crowdedRoomNote({ fixed: 5_828, threshold: 6_400, window: 8_000, turnTokens: 1_924.4 });
    expect(note).toContain('leaving ~572, less than one turn adds (~1924)');
    expect(crowdedRoomNote({ fixed: 5_828, threshold: 6_400, window: 8_000, turnTokens: 572 })).toBeUndefined();
    // Under half the threshold, turns that fit alone but not beside it (review 56).
    expect(crowdedRoomNote({ fixed: 3_100, threshold: 6_400, window: 8_000, turnTokens: 3_400 })).toContain('~3300');
  });
});
