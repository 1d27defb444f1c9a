/**
 * What a compaction says when what every request keeps (system instruction, tools, pins) leaves under the threshold
 * less room than one of the agent's turns adds: most turns need a compaction, each with little room for its summary.
 * Nothing above info said so (the sixty-third outside trial: 60 tool declarations on an 8k window, 39 summaries in
 * 40 turns). Pure: calibrated tokens in, the sentence out.
 */

interface RoomFigures {
  /** Calibrated tokens of the system instruction, tools and pins. */
  readonly fixed: number;
  readonly threshold: number;
  readonly window: number;
  /** What one turn of this agent adds, calibrated (the usage record's moving average), when known. */
  readonly turnTokens?: number | undefined;
}

/**
 * Of the threshold, the least the fixed part takes for it to be what crowds the turns: below it, a turn larger than the
 * room is the turn's own doing (review 55: one pasted 18k-character log under a 110-token fixed part was blamed on it).
 */
const CROWDING_SHARE = 0.5;

/**
 * The sentence, when the fixed part takes at least `CROWDING_SHARE` of the threshold and leaves under it no room or
 * less than a turn adds; else undefined.
 */
export function crowdedRoomNote({ fixed, threshold, window, turnTokens }: RoomFigures): string | undefined {
  const room = threshold - fixed;
  if (fixed < threshold * CROWDING_SHARE) return undefined;
  if (room > 0 && (turnTokens === undefined || room >= turnTokens)) return undefined;
  const left = room <= 0 ? 'all of it' : `leaving ~${room}, less than one turn adds (~${Math.round(turnTokens ?? 0)})`;
  return (
    `system instruction, tools and pins take ~${fixed} tokens of the compaction threshold ${threshold} (window ` +
    `${window}), ${left}: most turns need a compaction, with little room for each summary beside the durable ` +
    `facts. A larger window, a shorter instruction or fewer tools stop this`
  );
}
