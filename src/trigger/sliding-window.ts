/**
 * The sliding-window strategy's schedule (seed ADR-009), over request contents.
 *
 * Turns are counted from the user's requests after the watermark. Once theta
 * (`invocationThreshold`) turns have completed beyond the omega
 * (`overlapSize`) turns the window keeps, the older ones are summarized (with
 * the previous summary as context) and the last omega completed turns stay
 * verbatim after the summary with the in-flight turn: the overlap that keeps
 * the conversation continuous. The kept tail sits after the watermark, so it is
 * in every later request by construction (the reference implementation's
 * watermark pointed past it and the tail vanished). A token trigger (rho,
 * `safetyRatio` of the window) compacts earlier, and the threshold still
 * applies, so the schedule can never let a request overflow.
 */
import type { Content } from '@google/genai';
import { isUserRequest } from '../content/content-shape.js';

interface SlidingWindowInput {
  readonly contents: readonly Content[];
  readonly covered: number;
  readonly invocationThreshold: number;
  readonly overlapSize: number;
}

export interface SlidingWindowPlan {
  /** Turns completed after the watermark (the in-flight turn not counted). */
  readonly completedTurns: number;
  /** Whether the schedule calls for a compaction now. */
  readonly due: boolean;
  /** Start of the oldest turn kept verbatim (the overlap), when due. */
  readonly keepFrom?: number | undefined;
}

/** Indexes of the user requests (turn starts) at or after `from`. */
function turnStarts(contents: readonly Content[], from: number): number[] {
  const starts: number[] = [];
  for (let i = from; i < contents.length; i++) if (isUserRequest(contents[i])) starts.push(i);
  return starts;
}

export function planSlidingWindow(input: SlidingWindowInput): SlidingWindowPlan {
  const starts = turnStarts(input.contents, input.covered);
  // The last start is the in-flight turn; the ones before it are complete.
  const completedTurns = Math.max(0, starts.length - 1);
  const due = completedTurns >= input.invocationThreshold + input.overlapSize;
  if (!due) return { completedTurns, due };
  // Keep the last `overlapSize` completed turns and the in-flight one.
  const keepFrom = starts[starts.length - 1 - input.overlapSize];
  return { completedTurns, due, keepFrom };
}

/**
 * After a scheduled summary came out no smaller than what it would replace (masking keeps the turns small), the
 * schedule waits until the span it summarizes has doubled: tried again after every completed turn, 18 of 21 summaries
 * of a 40-turn session were discarded and billed (the thirty-second outside trial). Held while `completedTurns` is at
 * most the value returned.
 */
export function scheduleHeldUntil(sliding: SlidingWindowPlan | undefined, overlapSize: number): number | undefined {
  if (sliding === undefined) return undefined;
  const span = Math.max(1, sliding.completedTurns - overlapSize);
  return overlapSize + 2 * span - 1;
}
