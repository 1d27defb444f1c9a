/**
 * A bound on a model's window from this session's own rejections, when the provider's message states
 * no maximum the guard can read (no number, a maximum of 0, one not over the stated size, a wording it
 * does not know). A request rejected as too long was larger than the window: the guard's own calibrated
 * measure of it (never a figure of the error's text, which another user's content may write) bounds the
 * window of that model for this session, when the provider's own words say the request was too long
 * (estimate/calibration.ts `overflowInOwnWords`). Kept in the session's usage record, so replicas read it
 * (each applies it above the largest request the model accepted in its own process); never spread to
 * other sessions (usage/window-statements.ts keeps that for the provider's statements).
 * Like a stated maximum, it is not believed below 1,024 or a request the model accepted.
 */
import { modelKey } from '../estimate/model-registry.js';
import type { UsageRecord } from './stored-usage.js';
import { MIN_PLAUSIBLE_WINDOW, NO_BUDGET } from './window.js';

/**
 * The guard's measure of the request it sent, as the agent's callbacks left it: the calibrated estimate of
 * what the guard measured (`lastCalibrated`) with the heuristic tokens the callbacks added beyond what was
 * carried, or removed (`withAdditions.sentEstimate` over `stored.sentEstimate`, see usage/agent-additions.ts).
 */
export function rejectedMeasure(stored: UsageRecord, withAdditions: UsageRecord): number | undefined {
  if (stored.lastCalibrated === undefined) return undefined;
  const added = (withAdditions.sentEstimate ?? 0) - (stored.sentEstimate ?? 0);
  return Math.max(0, Math.round(stored.lastCalibrated + added));
}

/** The session's bound for `model` (its key, `modelKey`), unless it is below `floor` (a request the model accepted). */
export function rejectedBound(usage: UsageRecord, model: string, floor: number): number | undefined {
  const bound = usage.rejectedModel === model ? usage.rejectedTokens : undefined;
  return bound !== undefined && bound >= Math.max(floor, MIN_PLAUSIBLE_WINDOW) ? bound : undefined;
}

/** The usage record after `model` rejected a request the guard measured at `measure`: the smaller bound kept. */
export function recordRejectedSize(
  usage: UsageRecord,
  model: string | undefined,
  measure: number | undefined,
  floor: number,
): UsageRecord {
  if (measure === undefined || measure < Math.max(floor, MIN_PLAUSIBLE_WINDOW)) return usage;
  const name = modelKey(model ?? '');
  const before = rejectedBound(usage, name, floor);
  const bound = before === undefined ? measure : Math.min(before, measure);
  const recorded = { ...usage, rejectedTokens: bound, rejectedModel: name };
  // Status shows the bound from now, as it does a stated maximum (usage/learned-window.ts, recordStatedWindow).
  return usage.window === undefined || bound < usage.window
    ? { ...recorded, window: bound, windowSource: 'learned', ...NO_BUDGET }
    : recorded;
}
