/**
 * The turns an agent's usage record keeps, for status displays: how many invocations an agent has
 * served, how many tokens one turn adds on average (a moving average of the growth between the
 * first calls of consecutive invocations; turns that contained a compaction are left out, their
 * growth is negative), and how far a turn's largest request rises above its first (a turn's tool
 * results come and are masked again a turn later, so the peak, not the start, meets the threshold); and, for an
 * agent that works in steps (a tool loop inside one turn), how many calls the current turn has made and how many
 * tokens one step adds (a moving average of what arrived at a call over what the turn's previous call sent, the
 * record's `lastCalibrated` before this call).
 */
import type { AgentUsageFigures } from './agent-usage-figures.js';
import { MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import type { FieldReader } from '../state/field-reader.js';

export interface UsageTurns extends Pick<AgentUsageFigures, 'invocations'> {
  /** The id of the last invocation (user turn) seen. */
  readonly lastInvocationId?: string | undefined;
  /** Calibrated size at the first call of the current invocation. */
  readonly turnStartCalibrated?: number | undefined;
  /** Calibrated size of the largest request sent in the current invocation. */
  readonly turnPeakCalibrated?: number | undefined;
  /** Moving average of how many tokens one turn adds. */
  readonly averageTurnTokens?: number | undefined;
  /** Moving average of how far a completed turn's largest request rose above its first. */
  readonly averagePeakRise?: number | undefined;
  /** Model calls of the current invocation so far (0: none recorded). */
  readonly turnCalls?: number | undefined;
  /** Moving average of how many tokens one step (a call after the first of its turn) adds. */
  readonly averageStepTokens?: number | undefined;
}

export function decodeTurns(read: FieldReader): UsageTurns {
  return {
    invocations: read.counter('invocations'),
    lastInvocationId: read.string('lastInvocationId'),
    turnStartCalibrated: read.tokens('turnStartCalibrated', MAX_PLAUSIBLE_TOKENS),
    turnPeakCalibrated: read.tokens('turnPeakCalibrated', MAX_PLAUSIBLE_TOKENS),
    averageTurnTokens: read.tokens('averageTurnTokens', MAX_PLAUSIBLE_TOKENS),
    averagePeakRise: read.tokens('averagePeakRise', MAX_PLAUSIBLE_TOKENS),
    // 0 (none recorded) reads as absent, as a record without the field was written.
    turnCalls: read.counter('turnCalls') || undefined,
    averageStepTokens: read.tokens('averageStepTokens', MAX_PLAUSIBLE_TOKENS),
  };
}

const AVERAGE_WEIGHT = 0.3;

const moved = (average: number | undefined, value: number): number =>
  average === undefined ? value : average * (1 - AVERAGE_WEIGHT) + value * AVERAGE_WEIGHT;

/**
 * `usage` after a call of `invocationId` whose request was `calibrated` tokens. `arrived`: its size as it came, where
 * the call reduced it for room: a turn whose input forces a compaction at its first call grew by what came, not by
 * what was sent (the thirty-fifth outside trial: a merge agent fed ~28k tokens a turn on 16k compacted on each of
 * its 12 calls and was told ~19 to ~94 turns left). `previousSent`: the record's `lastCalibrated` before this call.
 */
export function trackTurn<T extends UsageTurns>(
  usage: T,
  invocationId: string,
  calibrated: number,
  arrived = calibrated,
  previousSent?: number,
): T {
  if (invocationId === usage.lastInvocationId) return nextStep(usage, calibrated, arrived, previousSent);
  const { turnStartCalibrated: previousStart, turnPeakCalibrated: previousPeak } = usage;
  let average = usage.averageTurnTokens;
  if (previousStart !== undefined && arrived > previousStart) average = moved(average, arrived - previousStart);
  const rise = previousStart !== undefined && previousPeak !== undefined ? previousPeak - previousStart : undefined;
  return {
    ...usage,
    invocations: usage.invocations + 1,
    lastInvocationId: invocationId,
    turnStartCalibrated: calibrated,
    turnPeakCalibrated: calibrated,
    averageTurnTokens: average,
    averagePeakRise: peakRiseAfter(usage.averagePeakRise, rise),
    turnCalls: 1,
  };
}

/** `usage` after another call of the current invocation, the one before it sent `previous`: a step of its tool loop. */
function nextStep<T extends UsageTurns>(usage: T, calibrated: number, arrived: number, previous?: number): T {
  const peak = usage.turnPeakCalibrated;
  const step = previous !== undefined && arrived > previous ? arrived - previous : undefined;
  return {
    ...usage,
    turnPeakCalibrated: peak !== undefined && peak >= calibrated ? peak : calibrated,
    turnCalls: (usage.turnCalls || 1) + 1,
    averageStepTokens: step === undefined ? usage.averageStepTokens : moved(usage.averageStepTokens, step),
  };
}

/** The average rise after a turn that rose `rise`; a zero average stays unknown, as the record reads 0 tokens back. */
function peakRiseAfter(average: number | undefined, rise: number | undefined): number | undefined {
  if (rise === undefined || rise < 0) return average;
  const next = moved(average, rise);
  return next > 0 ? next : average;
}
