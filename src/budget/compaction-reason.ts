/** What triggered a compaction: the threshold, a rejected request, the sliding window's schedule or its token trigger. */
export type CompactionReason = 'threshold' | 'forced' | 'schedule' | 'safety-ratio';
