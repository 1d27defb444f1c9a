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
 * The sentence, when the fixed part leaves under the threshold no room, or less than a turn adds where that turn alone
 * would fit under it: a turn over the threshold by itself is the turn's doing, whatever the fixed part (review 55: one
 * pasted 18k-character log was blamed on a 110-token instruction; review 56: a share of the threshold as the test was
 * wrong both ways); else undefined.
 */
export function crowdedRoomNote({ fixed, threshold, window, turnTokens }: RoomFigures): string | undefined {
  const room = threshold - fixed;
  if (room > 0 && (turnTokens === undefined || room >= turnTokens || turnTokens >= threshold)) return undefined;
  const left = room <= 0 ? 'all of it' : `leaving ~${room}, less than one turn adds (~${Math.round(turnTokens ?? 0)})`;
  return (
    `system instruction, tools and pins take ~${fixed} tokens of the compaction threshold ${threshold} (window ` +
    `${window}), ${left}: most turns need a compaction, with little room for each summary beside the durable ` +
    `facts. A larger window, a shorter instruction or fewer tools stop this`
  );
}
