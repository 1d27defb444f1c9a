/**
 * Pinned context: facts or messages that must never be summarized away. Pins
 * live in session state (per agent, or `*` for every agent), are carried
 * verbatim at the start of every request as their own content, and count in
 * the budget. Their total is capped; adding a pin past the cap is refused with
 * a clear error instead of silently crowding out the conversation.
 */
import type { Content } from '@google/genai';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import { GUARD_HEADINGS } from '../text/guard-markers.js';

export const PINNED_MARKER = '[context_guard pinned]';
/** Agent name under which pins apply to every agent. */
export const ALL_AGENTS = '*';

/** Who pinned a text: the application (`guard.pin`), the model (`pinContextTool`), or the guard (`pinFirstRequest`). */
export type PinSource = 'application' | 'model' | 'first-request';

/** A text carried verbatim in every later request of an agent (docs/memory.md). */
export interface Pin {
  readonly id: string;
  readonly text: string;
  readonly source: PinSource;
  readonly createdAt: number;
}

const SOURCES: readonly PinSource[] = ['application', 'model', 'first-request'];

/** Decodes a stored pin list (the old list key), dropping anything malformed. */
export function decodePins(value: unknown): Pin[] {
  const list = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null
      ? (value as { pins?: unknown }).pins
      : undefined;
  if (!Array.isArray(list)) return [];
  // More than any cap holds (a pin is at least a few tokens, the cap a share of the window): a hand-edited list of
  // 200,000 entries cost every later turn a second (the thirty-ninth outside trial).
  return list.slice(0, MAX_LISTED_PINS).flatMap((item) => decodePin(item) ?? []);
}

/** Entries of the old pins list read at most. */
const MAX_LISTED_PINS = 1_000;

/** Decodes one stored pin, or `undefined` when it is malformed (or a removed key's `null`). */
export function decodePin(item: unknown): Pin | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { id, text, source, createdAt } = item as Record<string, unknown>;
  if (typeof id !== 'string' || typeof text !== 'string' || text.trim().length === 0) return undefined;
  return {
    id,
    text,
    source: SOURCES.includes(source as PinSource) ? (source as PinSource) : 'application',
    createdAt: typeof createdAt === 'number' && Number.isFinite(createdAt) ? createdAt : 0,
  };
}

/** The content that carries the pins, or `undefined` when there are none. */
export function pinnedContent(pins: readonly Pin[]): Content | undefined {
  if (pins.length === 0) return undefined;
  const lines = pins.map((pin) =>
    pin.source === 'first-request' ? `- The user's original task: ${pin.text}` : `- ${pin.text}`,
  );
  return {
    role: 'user',
    parts: [{ text: `${PINNED_MARKER} ${GUARD_HEADINGS.pinned}:\n${lines.join('\n')}` }],
  };
}

/** Tokens the pins take in a request. */
export function pinnedTokens(pins: readonly Pin[], tokenizer: Tokenizer): number {
  const content = pinnedContent(pins);
  return content ? estimateContentTokens(content, tokenizer) : 0;
}

/**
 * What adding a pin did: `ok` with the pin list it was added to, the new pin and the pins' tokens;
 * or not added, with why, the tokens the pins would take and the cap they would exceed.
 */
export type AddPinResult =
  | { readonly ok: true; readonly pins: Pin[]; readonly pin: Pin; readonly tokens: number }
  | { readonly ok: false; readonly reason: string; readonly tokens: number; readonly cap: number };

/**
 * Adds a pin unless the pins would then exceed `capTokens`. `alongside` are
 * the pins that ride in the same requests (an agent's share of the `*` pins):
 * they count against the same cap. An identical pin is not added twice.
 */
export function addPin(
  pins: readonly Pin[],
  pin: Pin,
  capTokens: number,
  tokenizer: Tokenizer,
  alongside: readonly Pin[] = [],
): AddPinResult {
  const existing = pins.find((candidate) => candidate.text === pin.text);
  if (existing)
    return { ok: true, pins: [...pins], pin: existing, tokens: pinnedTokens([...alongside, ...pins], tokenizer) };
  const next = [...pins, pin];
  const tokens = pinnedTokens([...alongside, ...next], tokenizer);
  if (tokens > capTokens) {
    return {
      ok: false,
      reason: `pins would take ~${tokens} tokens, over the cap of ${capTokens} (maxPinnedTokens)`,
      tokens,
      cap: capTokens,
    };
  }
  return { ok: true, pins: next, pin, tokens };
}

/**
 * Whether to try pinning the first request again after it was refused under
 * `refusedAtCap`: only a larger cap (a larger window, say) can change the answer,
 * so a refusal is not retried, nor warned about, on every call.
 */
export function shouldTryFirstRequestPin(refusedAtCap: number | undefined, cap: number): boolean {
  return refusedAtCap === undefined || cap > refusedAtCap;
}
