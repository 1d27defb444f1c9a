/**
 * Where pins live in session state. Each pin has its own key (`context_guard:<agent>:pin:<id>`):
 * ADK applies a state delta key by key, each value replacing the stored one, so a writer that
 * stores one pin can never drop another's, whatever copy of the session it read (the application
 * with a session read before a turn, the model's `pin_context` in that turn). Pins are never
 * rewritten once stored. The old list key (`context_guard:<agent>:pins`) is still read, and
 * never written: rewriting it would be the one shared write, and could drop a pin an older
 * version of the package adds to it.
 */
import { stateKeysFor } from '../state/keys.js';
import { decodePin, decodePins, type AddPinResult, type Pin } from './pins.js';

/**
 * The pins of `agentName` in a state record, oldest first (by `createdAt`; the old list in its
 * order, then the pins' own keys by id). A pin stored twice (the same id, or the same text pinned
 * by two writers at once) counts once, the first kept.
 */
export function storedPins(state: Readonly<Record<string, unknown>>, agentName: string): Pin[] {
  const { pins, pinPrefix } = stateKeysFor(agentName);
  const keyed: Pin[] = [];
  for (const [key, value] of Object.entries(state)) {
    if (!key.startsWith(pinPrefix)) continue;
    const id = key.slice(pinPrefix.length);
    const pin = decodePin(value);
    // The id in the key and in the value agree, and has no ':' (agent `a`'s prefix must not read agent `a:pin`'s keys).
    if (pin && pin.id === id && !id.includes(':')) keyed.push(pin);
  }
  keyed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Array.prototype.sort is stable: equal times keep the list's order, then the ids'.
  const ordered = [...decodePins(state[pins]), ...keyed].sort((a, b) => a.createdAt - b.createdAt);
  const ids = new Set<string>();
  const texts = new Set<string>();
  return ordered.filter((pin) => {
    if (ids.has(pin.id) || texts.has(pin.text)) return false;
    ids.add(pin.id);
    texts.add(pin.text);
    return true;
  });
}

/** The state delta that stores what adding `candidate` did: the new pin under its own key; nothing when it was refused or already pinned. */
export function addedPinDelta(agentName: string, result: AddPinResult, candidate: Pin): Record<string, Pin> {
  if (!result.ok || result.pin.id !== candidate.id) return {};
  const { id, text, source, createdAt } = candidate;
  return { [`${stateKeysFor(agentName).pinPrefix}${id}`]: { id, text, source, createdAt } };
}
