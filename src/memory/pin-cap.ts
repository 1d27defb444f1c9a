/**
 * The one rule for the window a pin cap is taken from, pure.
 */
import { pinCapFor } from './fit-pins.js';

/** The windows that may be known when a pin is added, most specific first. */
interface PinWindows {
  /** The window of the request in hand (a pin added during a model call). */
  readonly request?: number | undefined;
  /** The window recorded by the agent's last call. */
  readonly lastSeen?: number | undefined;
  /** The agent's `contextWindow`, then the options' `defaultContextWindow`. */
  readonly configured?: number | undefined;
  readonly fallback: number;
}

/** Token cap of an agent's pins under the most specific window known. */
export function pinCapIn(windows: PinWindows, maxPinnedTokens: number | undefined): number {
  return pinCapFor(windows.request ?? windows.lastSeen ?? windows.configured ?? windows.fallback, maxPinnedTokens);
}
