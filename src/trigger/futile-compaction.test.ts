import { describe, expect, it } from 'vitest';
import { compactionMayHelp, FUTILE_RETRY_CORRECTION_DROP, FUTILE_RETRY_GROWTH_RATIO } from './futile-compaction.js';

const LAST = { window: 8_000, fixedTokens: 5_000, correction: 1.3, contentTokens: 600 };

describe('compactionMayHelp', () => {
  it('should allow a compaction when none was futile before', () => {
    expect(compactionMayHelp(undefined, LAST)).toBe(true);
  });

  it('should hold a compaction back under the same conditions and a little new content', () => {
    expect(compactionMayHelp(LAST, LAST)).toBe(false);
    expect(
      compactionMayHelp(LAST, { ...LAST, contentTokens: LAST.contentTokens + 8_000 * FUTILE_RETRY_GROWTH_RATIO - 1 }),
    ).toBe(false);
    // A higher correction makes compaction help even less.
    expect(compactionMayHelp(LAST, { ...LAST, correction: 2 })).toBe(false);
    // A larger fixed part too.
    expect(compactionMayHelp(LAST, { ...LAST, fixedTokens: 5_100 })).toBe(false);
  });

  it('should allow it again once something changed that could make it help', () => {
    expect(compactionMayHelp(LAST, { ...LAST, window: 16_000 })).toBe(true);
    expect(compactionMayHelp(LAST, { ...LAST, fixedTokens: 4_999 })).toBe(true);
    expect(
      compactionMayHelp(LAST, { ...LAST, correction: LAST.correction * (1 - FUTILE_RETRY_CORRECTION_DROP) - 0.01 }),
    ).toBe(true);
    expect(
      compactionMayHelp(LAST, { ...LAST, contentTokens: LAST.contentTokens + 8_000 * FUTILE_RETRY_GROWTH_RATIO }),
    ).toBe(true);
  });

  it('should try again over the hard limit when new content could be taken out and the fixed part alone fits', () => {
    const over = { calibrated: 7_700, fixedCalibrated: 6_500, hardLimit: 7_600, window: 8_000, target: 6_400 };
    const grown = { ...LAST, contentTokens: LAST.contentTokens + 40 };
    expect(compactionMayHelp(LAST, grown, over)).toBe(true);
    // Nothing new to take out.
    expect(compactionMayHelp(LAST, LAST, over)).toBe(false);
    // Under the hard limit: the growth rule applies.
    expect(compactionMayHelp(LAST, grown, { ...over, calibrated: 7_500 })).toBe(false);
    // A fixed part over the window alone: no compaction can save the request.
    expect(compactionMayHelp(LAST, grown, { ...over, fixedCalibrated: 8_100, calibrated: 8_400 })).toBe(false);
  });

  it('should not count new content when the fixed part alone is at or over the target', () => {
    const grown = { ...LAST, contentTokens: LAST.contentTokens + 8_000 * FUTILE_RETRY_GROWTH_RATIO * 3 };
    const under = { calibrated: 7_000, fixedCalibrated: 6_000, hardLimit: 7_600, window: 8_000, target: 6_400 };
    expect(compactionMayHelp(LAST, grown, under)).toBe(true);
    expect(compactionMayHelp(LAST, grown, { ...under, fixedCalibrated: 6_400 })).toBe(false);
    // Still over the hard limit with room in the window: a compaction keeps the request from being rejected.
    expect(compactionMayHelp(LAST, grown, { ...under, fixedCalibrated: 6_600, calibrated: 7_700 })).toBe(true);
  });

  it('should let the request run on to the hard limit when the fixed part leaves the target less room than a summary waits for', () => {
    // The nineteenth outside trial: a 6k-token policy prompt on an 8k window was summarized every two or three calls.
    const worth = 8_000 * FUTILE_RETRY_GROWTH_RATIO;
    const tight = {
      calibrated: 6_500,
      fixedCalibrated: 6_400 - worth + 1,
      hardLimit: 7_600,
      window: 8_000,
      target: 6_400,
      tooSmallHolds: true,
    };
    expect(compactionMayHelp(undefined, LAST, tight)).toBe(false);
    expect(compactionMayHelp(undefined, LAST, { ...tight, calibrated: 7_601 })).toBe(true);
    // Uncalibrated (review 16): the threshold is the only protection then, and a compaction is made there.
    expect(compactionMayHelp(undefined, LAST, { ...tight, tooSmallHolds: false })).toBe(true);
    // A summary's worth of room: compacted at the target as before.
    expect(compactionMayHelp(undefined, LAST, { ...tight, fixedCalibrated: 6_400 - worth })).toBe(true);
  });
});
