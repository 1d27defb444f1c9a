import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { tokensBeyondDigitGroups, tokensBeyondOtherDigits } from './split-digits.js';
import { splitDigitsTokenizer, tiktokenTokenizer } from './tokenizer.js';

const reference = new Tiktoken(o200kBase);

describe('tokensBeyondDigitGroups', () => {
  it('should count what one token a digit adds to o200k groups of three', () => {
    expect(tokensBeyondDigitGroups('')).toBe(0);
    expect(tokensBeyondDigitGroups('no digits here')).toBe(0);
    expect(tokensBeyondDigitGroups('7')).toBe(0);
    expect(tokensBeyondDigitGroups('12')).toBe(1);
    expect(tokensBeyondDigitGroups('123')).toBe(2);
    expect(tokensBeyondDigitGroups('1234')).toBe(2);
    expect(tokensBeyondDigitGroups('1234567')).toBe(4);
    // Runs end at anything but an ASCII digit, the text's end included.
    expect(tokensBeyondDigitGroups('id 1234, line 56:9')).toBe(2 + 1 + 0);
    expect(tokensBeyondDigitGroups('x=3.14159')).toBe(0 + 3);
  });

  it('should leave digits of other scripts to their own count', () => {
    expect(tokensBeyondDigitGroups('١٢٣٤٥ １２３')).toBe(0);
  });

  it("should count a digit-splitting tokenizer's tokens on o200k's own: each digit one token, the rest as o200k's", () => {
    // The oracle is js-tiktoken's encoding: its tokens of ASCII digits only are replaced by one token a digit.
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.stringMatching(/^[0-9]{1,12}$/), fc.stringMatching(/^[a-zA-Z ,.:=_-]{1,6}$/))),
        (pieces) => {
          const text = pieces.join('');
          const tokens = reference.encode(text, [], []).map((token) => reference.decode([token]));
          const split = tokens.reduce((sum, token) => sum + (/^[0-9]+$/.test(token) ? token.length : 1), 0);
          expect(tokens.length + tokensBeyondDigitGroups(text)).toBe(split);
        },
      ),
      PROPERTY_RUNS,
    );
  });
});

describe('tokensBeyondOtherDigits', () => {
  it("should count other scripts' decimal digits one token each on o200k's own, as SentencePiece splits them", () => {
    // The oracle is js-tiktoken's encoding: its tokens made only of such digits count one a digit, and a digit
    // o200k spreads over several tokens (bytes) keeps o200k's count.
    const digits = fc.constantFrom(...'０１２３４５６７８９०१२३४५६७८९০১২৩৪৫৬৭৮৯٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹');
    const piece = fc.oneof(
      fc.array(digits, { minLength: 1, maxLength: 9 }).map((chars) => chars.join('')),
      fc.stringMatching(/^[a-zA-Z ,.:=_-]{1,6}$/),
    );
    fc.assert(
      fc.property(fc.array(piece), (pieces) => {
        const text = pieces.join('');
        const tokens = reference.encode(text, [], []).map((token) => reference.decode([token]));
        const split = tokens.reduce((sum, token) => sum + (/^[^\P{Nd}0-9]+$/u.test(token) ? [...token].length : 1), 0);
        expect(splitDigitsTokenizer.count(text)).toBe(split);
      }),
      PROPERTY_RUNS,
    );
    expect(tokensBeyondOtherDigits('no digits, 123 ascii ones', () => 0)).toBe(0);
    // Seven fullwidth digits o200k counts as 3 tokens: 4 more; a run o200k counts over its digits adds none.
    expect(tokensBeyondOtherDigits('id １２３４５６７.', () => 3)).toBe(4);
    expect(tokensBeyondOtherDigits('१२', () => 5)).toBe(0);
  });
});

describe('splitDigitsTokenizer', () => {
  it('should count every digit as one token, in short and in sampled texts', () => {
    const short = Array.from({ length: 40 }, (_, i) => String(1_000_000 + i * 7919)).join(' ');
    expect(splitDigitsTokenizer.count(short)).toBe(tiktokenTokenizer.count(short) + 40 * 4);
    // Over 2,048 characters o200k's count is sampled; the digits are counted over the whole text.
    const long = `${'Plain prose between the numbers. '.repeat(200)}${short}`;
    expect(long.length).toBeGreaterThan(2_048);
    expect(splitDigitsTokenizer.count(long) - tiktokenTokenizer.count(long)).toBe(40 * 4);
  });

  it('should count text without digits as o200k does', () => {
    const text = 'The agent looked up the order and wrote back to the customer.';
    expect(splitDigitsTokenizer.count(text)).toBe(tiktokenTokenizer.count(text));
  });
});
