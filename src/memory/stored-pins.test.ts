import { describe, expect, it } from 'vitest';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { stateKeysFor } from '../state/keys.js';
import { addPin, type Pin } from './pins.js';
import { addedPinDelta, storedPins } from './stored-pins.js';

function pin(id: string, text: string, createdAt: number): Pin {
  return { id, text, source: 'application', createdAt };
}

const worker = stateKeysFor('worker');
const keyOf = (p: Pin, agent = 'worker') => `${stateKeysFor(agent).pinPrefix}${p.id}`;

describe('storedPins', () => {
  it('should keep both pins of two writers whose deltas each replace only their own key', () => {
    const stored = { [worker.pins]: [pin('old', 'Old fact', 1)] };
    const app = pin('pin-a', 'Customer: ACME-204', 5);
    const model = pin('pin-b', 'Budget cap: 4,000 EUR', 6);
    // Each writer read `stored`; ADK applies each delta key by key over what is stored by then.
    const fromApp = addedPinDelta('worker', addPin(storedPins(stored, 'worker'), app, 1_000, characterTokenizer), app);
    const fromModel = addedPinDelta(
      'worker',
      addPin(storedPins(stored, 'worker'), model, 1_000, characterTokenizer),
      model,
    );
    const after = { ...stored, ...fromModel, ...fromApp };
    expect(storedPins(after, 'worker').map((entry) => entry.text)).toEqual([
      'Old fact',
      'Customer: ACME-204',
      'Budget cap: 4,000 EUR',
    ]);
  });

  it('should read the old list key in its order, then order every pin oldest first', () => {
    const b = pin('pin-b', 'B', 20);
    const a = pin('pin-a', 'A', 20);
    const state = {
      [worker.pins]: [pin('x', 'X', 10), pin('y', 'Y', 30)],
      [keyOf(b)]: b,
      [keyOf(a)]: a,
    };
    // Equal times: the ids decide (the id carries the time and a per-process sequence).
    expect(storedPins(state, 'worker').map((entry) => entry.text)).toEqual(['X', 'A', 'B', 'Y']);
  });

  it('should count once a pin stored under both keys or the same text pinned twice', () => {
    const first = pin('pin-1', 'Same fact', 1);
    const twin = pin('pin-2', 'Same fact', 2);
    const state = { [worker.pins]: [first], [keyOf(first)]: first, [keyOf(twin)]: twin };
    expect(storedPins(state, 'worker')).toEqual([first]);
  });

  it("should read neither another agent's pins (even one named `worker:pin`) nor malformed or removed keys", () => {
    const other = pin('pin-o', 'Other', 1);
    const nested = pin('pin-n', 'Nested', 1);
    const state = {
      [keyOf(other, 'planner')]: other,
      [keyOf(nested, 'worker:pin')]: nested,
      [`${worker.pinPrefix}pin-mismatch`]: pin('pin-else', 'Mismatch', 1),
      [`${worker.pinPrefix}pin-removed`]: null,
      [`${worker.pinPrefix}pin-blank`]: pin('pin-blank', '  ', 1),
    };
    expect(storedPins(state, 'worker')).toEqual([]);
    expect(storedPins(state, 'worker:pin').map((entry) => entry.text)).toEqual(['Nested']);
  });
});

describe('addedPinDelta', () => {
  it('should write only the new pin, under its own key', () => {
    const next = pin('pin-n', 'New', 3);
    const result = addPin([pin('pin-o', 'Old', 1)], next, 1_000, characterTokenizer);
    expect(addedPinDelta('worker', result, next)).toEqual({ [keyOf(next)]: next });
  });

  it('should write nothing for a pin already there or refused', () => {
    const again = pin('pin-again', 'Old', 3);
    expect(addedPinDelta('worker', addPin([pin('pin-o', 'Old', 1)], again, 1_000, characterTokenizer), again)).toEqual(
      {},
    );
    const big = pin('pin-big', 'x'.repeat(500), 3);
    expect(addedPinDelta('worker', addPin([], big, 10, characterTokenizer), big)).toEqual({});
  });
});
