/**
 * Pins against the current window. A pin is checked against the cap when it is
 * added, but the window can shrink afterwards (the agent moves to a smaller
 * model, a window is learned from a rejection) and state can be written by
 * hand. Before every request the pins are fitted to the cap of the window in
 * force: the oldest are left out first, and a single pin still too large is
 * cut head and tail. State is not changed, so the pins come back whole under a
 * window that holds them.
 */
import { truncateMiddle } from '../text/truncate-text.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import { pinnedTokens, type Pin } from './pins.js';
// The shares (default 10% of the window, never over half) live in the option table, which the docs are written from.
import { DEFAULT_PIN_SHARE, MAX_PIN_SHARE } from '../config/content-options.js';

/** Token cap of an agent's pins under `window`. */
export function pinCapFor(window: number, maxPinnedTokens: number | undefined): number {
  const ceiling = Math.floor(window * MAX_PIN_SHARE);
  return Math.min(maxPinnedTokens ?? Math.floor(window * DEFAULT_PIN_SHARE), ceiling);
}

interface FittedPins {
  readonly pins: Pin[];
  /** Pins left out of this request (oldest first). */
  readonly dropped: readonly Pin[];
  /** Whether the one pin kept was cut to fit. */
  readonly cut: boolean;
  readonly tokens: number;
}

/** The pins that fit `capTokens`: the newest kept whole, the oldest left out, a lone oversized pin cut. */
export function fitPinsToCap(pins: readonly Pin[], capTokens: number, tokenizer: Tokenizer): FittedPins {
  const from = firstKept(pins, capTokens, tokenizer);
  let kept = pins.slice(from);
  const dropped = pins.slice(0, from);
  const tokens = pinnedTokens(kept, tokenizer);
  const last = kept[0];
  if (tokens <= capTokens || !last) return { pins: kept, dropped, cut: false, tokens };
  const cut = cutPin(last, capTokens, tokenizer);
  if (!cut) return { pins: [], dropped: [...dropped, last], cut: false, tokens: 0 };
  kept = [cut];
  return { pins: kept, dropped, cut: true, tokens: pinnedTokens(kept, tokenizer) };
}

/**
 * Where the pins that fit begin: the fewest oldest left out, the newest always kept. Measured once each from the
 * newest back until they hold well over the cap (no older pin can fit then), then the start searched by halves over
 * the pins so measured. Dropping one pin at a time and measuring the rest again took seconds a call with thousands of
 * pins over the cap (the thirty-third outside trial: 3,000 pins, 3 s a call; 50,000, minutes).
 */
function firstKept(pins: readonly Pin[], capTokens: number, tokenizer: Tokenizer): number {
  const fits = (from: number): boolean => pinnedTokens(pins.slice(from), tokenizer) <= capTokens;
  if (pins.length === 0 || fits(0)) return 0;
  // Lines alone count about what they count together; twice the cap leaves room for the difference.
  let low = pins.length - 1;
  for (let lines = 0; low > 0; low--) {
    const pin = pins[low] as Pin;
    lines += tokenizer.count(`- ${pin.text}`);
    if (lines > 2 * capTokens) break;
  }
  const start = smallestFitting(fits, low, pins.length - 1);
  // A tokenizer that charges each count a fixed cost counts lines alone above what they count together (review 29):
  // when even the pin the walk stopped at fits, the older ones are searched too.
  return start === low && low > 0 ? smallestFitting(fits, 0, low) : start;
}

/** The smallest start in [low, high] that fits; `high` when none does (the last pin alone, cut then). */
function smallestFitting(fits: (from: number) => boolean, low: number, high: number): number {
  let from = low;
  let to = high;
  while (from < to) {
    const middle = Math.floor((from + to) / 2);
    if (fits(middle)) to = middle;
    else from = middle + 1;
  }
  return to;
}

/** The pin cut head+tail until its content fits `capTokens`, or `undefined` when not even the frame fits. */
function cutPin(pin: Pin, capTokens: number, tokenizer: Tokenizer): Pin | undefined {
  let chars = pin.text.length;
  for (let round = 0; round < 32 && chars > 0; round++) {
    const candidate = { ...pin, text: truncateMiddle(pin.text, chars) };
    const tokens = pinnedTokens([candidate], tokenizer);
    if (tokens <= capTokens) return candidate;
    // Shrink by the overshoot, and at least by a tenth, so every round makes progress.
    const next = Math.floor(chars * Math.min(0.9, capTokens / tokens));
    chars = next < chars ? next : chars - 1;
  }
  return undefined;
}
