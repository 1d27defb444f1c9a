/**
 * A provider that cuts an over-long prompt instead of refusing it (Ollama keeps the last `num_ctx` tokens and
 * reports that many) reports the same prompt count on every call while the requests grow: the guard, told of no
 * rejection, assumed a window 16 times too large and the model answered from a cut prompt on 92 of 120 calls, with
 * nothing said (the fortieth outside trial). An honest count grows with its request, so a count equal to the last
 * one on a request measurably larger is not calibrated from, and after a few in a row the shell warns.
 */
import type { UsageCalibration } from './calibration.js';

/** Counts equal to the last on requests that grew, in a row, after which the provider is said to cut prompts. */
export const PLATEAU_REPORTS = 3;

/** Growth of the estimate over the last counted request's past which the same count cannot be an honest one. */
const PLATEAU_GROWTH = 1.02;

/** `prompt`, reported for the request just sent, is the last count again though the request grew. */
export function onCountPlateau(usage: UsageCalibration, prompt: number): boolean {
  const { realPromptTokens, lastEstimate, sentEstimate } = usage;
  if (realPromptTokens === undefined || lastEstimate === undefined || sentEstimate === undefined) return false;
  return prompt === realPromptTokens && sentEstimate > lastEstimate * PLATEAU_GROWTH;
}
