import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fitPinsToCap, pinCapFor } from './fit-pins.js';
import { pinnedTokens, type Pin } from './pins.js';

const tokenizer = { name: 'chars/4', count: (text: string) => Math.ceil(text.length / 4) };
const pin = (id: string, text: string, createdAt = 0): Pin => ({ id, text, source: 'application', createdAt });

describe('pinCapFor', () => {
  it('should give a tenth of the window by default and never more than half of it', () => {
    expect(pinCapFor(8_000, undefined)).toBe(800);
    expect(pinCapFor(8_000, 1_000)).toBe(1_000);
    expect(pinCapFor(8_000, 12_000)).toBe(4_000);
  });
});

describe('fitPinsToCap', () => {
  it('should keep pins that fit as they are', () => {
    const pins = [pin('a', 'keep the order id 42'), pin('b', 'the user prefers metric units')];
    const fitted = fitPinsToCap(pins, 1_000, tokenizer);
    expect(fitted.pins).toEqual(pins);
    expect(fitted.dropped).toEqual([]);
    expect(fitted.cut).toBe(false);
  });

  it('should leave out the oldest pins first', () => {
    const pins = [pin('old', 'x'.repeat(2_000)), pin('new', 'the newest fact')];
    const fitted = fitPinsToCap(pins, 100, tokenizer);
    expect(fitted.pins.map((each) => each.id)).toEqual(['new']);
    expect(fitted.dropped.map((each) => each.id)).toEqual(['old']);
  });

  it('should cut a lone oversized pin head and tail rather than drop it', () => {
    const text = `START ${'filler '.repeat(8_000)} END`;
    const fitted = fitPinsToCap([pin('big', text)], 500, tokenizer);
    expect(fitted.cut).toBe(true);
    expect(fitted.pins[0]?.text.startsWith('START')).toBe(true);
    expect(fitted.pins[0]?.text.endsWith('END')).toBe(true);
    expect(pinnedTokens(fitted.pins, tokenizer)).toBeLessThanOrEqual(500);
    // Most of the room is used: cut to what fits, not to a floor.
    expect(pinnedTokens(fitted.pins, tokenizer)).toBeGreaterThan(400);
  });

  it('should always end within the cap', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 3_000 }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 2_000 }),
        (texts, cap) => {
          const fitted = fitPinsToCap(
            texts.map((text, i) => pin(`p${i}`, text)),
            cap,
            tokenizer,
          );
          expect(fitted.tokens).toBeLessThanOrEqual(Math.max(cap, 0));
          expect(pinnedTokens(fitted.pins, tokenizer)).toBe(fitted.tokens);
        },
      ),
    );
  });
});

describe('fitPinsToCap over many pins', () => {
  /** The first way it was done: drop the oldest, measure the rest again, until they fit. */
  function oneByOne(pins: readonly Pin[], cap: number): number {
    let from = 0;
    while (from < pins.length - 1 && pinnedTokens(pins.slice(from), tokenizer) > cap) from++;
    return from;
  }

  it('should leave out the same oldest pins as dropping them one at a time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 200 }), { maxLength: 60 }),
        fc.nat(2_000),
        (texts, cap) => {
          const pins = texts.map((text, i) => pin(`p${i}`, `${text}.`));
          const fitted = fitPinsToCap(pins, cap, tokenizer);
          // The last pin left is cut to fit, or left out too when not even its frame fits: the same in both ways.
          const from = oneByOne(pins, cap) + (fitted.pins.length === 0 && pins.length > 0 ? 1 : 0);
          expect(fitted.dropped).toEqual(pins.slice(0, from));
          expect(fitted.pins.map((each) => each.id)).toEqual(pins.slice(from).map((each) => each.id));
        },
      ),
    );
  });

  it('should keep every pin that fits under a tokenizer that charges each count a fixed cost (review 29)', () => {
    const framed = { name: 'framed', count: (text: string) => 8 + Math.ceil(text.length / 4) };
    const pins = Array.from({ length: 200 }, (_, i) => pin(`p${i}`, `fact ${i}`));
    const oneAtATime = (from = 0): number =>
      from < pins.length - 1 && pinnedTokens(pins.slice(from), framed) > 300 ? oneAtATime(from + 1) : from;
    expect(fitPinsToCap(pins, 300, framed).dropped.length).toBe(oneAtATime());
  });

  it('should read each pin about once, not once per pin left out (the thirty-third outside trial: seconds a call)', () => {
    const pins = Array.from({ length: 3_000 }, (_, i) => pin(`p${i}`, `fact number ${i}: the order is on shelf ${i}`));
    let read = 0;
    const counting = { name: 'counting', count: (text: string) => ((read += text.length), Math.ceil(text.length / 4)) };
    const fitted = fitPinsToCap(pins, 1_000, counting);
    expect(fitted.dropped.length).toBe(oneByOne(pins, 1_000));
    const all = pins.reduce((chars, each) => chars + each.text.length, 0);
    expect(read).toBeLessThan(3 * all);
  });
});
