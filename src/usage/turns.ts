/**
 * The turns an agent's usage record keeps, for status displays: how many invocations an agent has
 * served and how many tokens one turn adds on average (a moving average of the growth between the
 * first calls of consecutive invocations; turns that contained a compaction are left out, their
 * growth is negative).
 */
import type { AgentUsageFigures } from './agent-usage-figures.js';
import { MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import type { FieldReader } from '../state/field-reader.js';

export interface UsageTurns extends Pick<AgentUsageFigures, 'invocations'> {
  /** The id of the last invocation (user turn) seen. */
  readonly lastInvocationId?: string | undefined;
  /** Calibrated size at the first call of the current invocation. */
  readonly turnStartCalibrated?: number | undefined;
  /** Moving average of how many tokens one turn adds. */
  readonly averageTurnTokens?: number | undefined;
}

export function decodeTurns(read: FieldReader): UsageTurns {
  return {
    invocations: read.counter('invocations'),
    lastInvocationId: read.string('lastInvocationId'),
    turnStartCalibrated: read.tokens('turnStartCalibrated', MAX_PLAUSIBLE_TOKENS),
    averageTurnTokens: read.tokens('averageTurnTokens', MAX_PLAUSIBLE_TOKENS),
  };
}

const AVERAGE_WEIGHT = 0.3;

/** `usage` after a call of `invocationId` whose request was `calibrated` tokens. */
export function trackTurn<T extends UsageTurns>(usage: T, invocationId: string, calibrated: number): T {
  if (invocationId === usage.lastInvocationId) return usage;
  let average = usage.averageTurnTokens;
  const previousStart = usage.turnStartCalibrated;
  if (previousStart !== undefined && calibrated > previousStart) {
    const growth = calibrated - previousStart;
    average = average === undefined ? growth : average * (1 - AVERAGE_WEIGHT) + growth * AVERAGE_WEIGHT;
  }
  return {
    ...usage,
    invocations: usage.invocations + 1,
    lastInvocationId: invocationId,
    turnStartCalibrated: calibrated,
    averageTurnTokens: average,
  };
}
