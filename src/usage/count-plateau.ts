/**
 * A provider that cuts an over-long prompt instead of refusing it (Ollama keeps the last `num_ctx` tokens, or drops
 * whole old messages until the prompt fits) reports a count that stops growing while the requests grow: the guard,
 * told of no rejection, assumed a window 16 times too large and the model answered from a cut prompt on 92 of 120
 * calls, with nothing said (the fortieth outside trial). An honest count grows with its request, so a count that grew
 * less than a tenth of what the estimate grew since the last one paired is not paired: the pair and the correction it
 * taught stay, and the growth is measured from that pair, so turns that each add a little add up (review 36: short
 * chat turns grew under 2% a call and slid the correction to 1.00). Once the estimate has grown a tenth past the
 * pair, each such count is counted, and after a few the shell warns.
 */
import type { UsageCalibration } from './calibration.js';

/** Counts that stopped growing, after which the provider is said to cut (or under-report) its prompts. */
export const PLATEAU_REPORTS = 3;

/**
 * A count has not grown when it grew less than this share of what the estimate grew since the last pair: an honest
 * count grows about as much (a short turn's 0.1% too: CI saw a fixed 1% band hold such a count off, and `status()`
 * show the one before), a cut one not at all, or varies a little as whole messages are dropped.
 */
const FLAT_SHARE = 0.1;

/**
 * Nor when it grew more than this, whatever the estimate did: an estimate that overprices what a turn adds (a
 * scanned PDF's pages guessed from its bytes) would make an honest count that grew by a fifth look flat (review 38).
 */
const FLAT_COUNT = 1.01;

/** Growth of the estimate over the last paired request's past which a count that has not grown is counted. */
const PLATEAU_GROWTH = 1.1;

/** How `prompt`, reported for the request just sent, stands against the last count paired with an estimate. */
export function countPlateau(usage: UsageCalibration, prompt: number): 'grown' | 'flat' | 'plateau' {
  const { realPromptTokens, lastEstimate, sentEstimate } = usage;
  if (realPromptTokens === undefined) return staleAfterReduction(usage, prompt) ? 'flat' : 'grown';
  if (lastEstimate === undefined || sentEstimate === undefined) return 'grown';
  if (sentEstimate <= lastEstimate) return 'grown';
  // A count under the last one paired is a cut's dip (whole messages dropped), however deep (review 38): another
  // model's lower count is paired before this is asked (provider-feedback.ts).
  const countGrowth = prompt / realPromptTokens - 1;
  const estimateGrowth = sentEstimate / lastEstimate - 1;
  if (countGrowth > Math.min(FLAT_COUNT - 1, estimateGrowth * FLAT_SHARE)) return 'grown';
  return sentEstimate > lastEstimate * PLATEAU_GROWTH ? 'plateau' : 'flat';
}

/**
 * After a reduction, the very count of the last pair before it, for a request the guard estimates smaller, is that
 * request's: a provider repeating its count (the forty-seventh outside trial: paired, it taught a correction of 5
 * and 30 compactions in 40 turns, against 5). Only the same count: an honest one can be larger for a smaller estimate
 * where the kept content counts denser than the summarized (a larger one held off cost `8k_EveryTurnExceedsWindow` 19%
 * more); a provider lagging its count a call is not caught (review 40 #3).
 */
function staleAfterReduction(usage: UsageCalibration, prompt: number): boolean {
  const { countBeforeReduction, estimateBeforeReduction, sentEstimate } = usage;
  if (countBeforeReduction === undefined || estimateBeforeReduction === undefined || sentEstimate === undefined)
    return false;
  return sentEstimate < estimateBeforeReduction && prompt === countBeforeReduction;
}
