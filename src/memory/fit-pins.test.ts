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
