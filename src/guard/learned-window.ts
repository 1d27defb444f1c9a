/**
 * Which window an agent's requests are measured against, when a provider has
 * stated a maximum in a rejection ("... exceeds the maximum number of tokens
 * allowed (8000)").
 *
 * Precedence: a stated maximum is the provider's word about what it accepts,
 * so it replaces the registry's window and the default. An explicit
 * `contextWindow` (or `modelWindows` entry) is the user's word and is kept
 * when it is smaller (a user may want to spend less); when it is larger the
 * provider wins, because a request must fit what the provider accepts, and the
 * shell logs that once. Pure functions over plain data.
 */
import type { ResolvedWindow, WindowSource } from '../estimate/model-registry.js';
import { normalizeModelName } from '../estimate/model-registry.js';
import { plausibleTokenCount, type UsageRecord, type WindowOrigin } from '../state/guard-state.js';

/** A stated maximum below this is not believed (a misparse, not a model): the smallest window an option may name. */
const MIN_PLAUSIBLE_WINDOW = 1_024;

export interface WindowChoice {
  readonly window: number;
  readonly origin: WindowOrigin;
  /** Set when a stated maximum overrode a larger `contextWindow` option: that option's value. */
  readonly overriddenOption?: number | undefined;
}

export function originOf(source: WindowSource): WindowOrigin {
  if (source === 'override' || source === 'table') return 'option';
  if (source === 'default') return 'default';
  return 'registry';
}

/** A provider's stated maximum, if plausible as a window. */
export function plausibleWindow(limit: number | undefined): number | undefined {
  return plausibleTokenCount(limit, MIN_PLAUSIBLE_WINDOW);
}

/** The window learned for `model`: from the agent's usage record (when it was learned for that model) and the process. */
export function learnedWindowFor(
  usage: UsageRecord,
  model: string | undefined,
  processWindow: number | undefined,
): number | undefined {
  const name = normalizeModelName(model ?? '');
  const fromState =
    usage.learnedWindow !== undefined && usage.learnedWindowModel === name ? usage.learnedWindow : undefined;
  if (fromState === undefined) return processWindow;
  return processWindow === undefined ? fromState : Math.min(fromState, processWindow);
}

/** The window to use, given the registry's (or options') answer and a learned maximum. */
export function chooseWindow(resolved: ResolvedWindow, learned: number | undefined): WindowChoice {
  const origin = originOf(resolved.source);
  if (learned === undefined) return { window: resolved.window, origin };
  if (origin !== 'option') return { window: learned, origin: 'learned' };
  if (learned < resolved.window) return { window: learned, origin: 'learned', overriddenOption: resolved.window };
  return { window: resolved.window, origin };
}

/** The usage record after a rejection that stated `limit` for `model` (unchanged when it stated none). */
export function recordStatedWindow(
  usage: UsageRecord,
  model: string | undefined,
  limit: number | undefined,
): UsageRecord {
  const window = plausibleWindow(limit);
  if (window === undefined) return usage;
  const learned = { ...usage, learnedWindow: window, learnedWindowModel: normalizeModelName(model ?? '') };
  // The next call measures against it (see chooseWindow): status shows it now, not the window that was too large.
  return usage.window === undefined || window < usage.window
    ? { ...learned, window, windowSource: 'learned', threshold: undefined, hardLimit: undefined }
    : learned;
}
