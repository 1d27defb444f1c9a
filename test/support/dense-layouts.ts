/**
 * Hostile layouts for the sampled tokenizer: dense text everywhere but the 512-character windows a
 * sampled estimate reads, ordinary prose in them. Shared by the tokenizer's bounds test and
 * scripts/dense-between-samples.ts, which prints the figures of docs/performance.md.
 */
import { base64Text, hexText } from '../../src/testing/hard-text.js';
import { SeededRandom } from '../../src/testing/seeded-random.js';

/** `chars` characters of filler, from `seed`. */
export type Filler = (chars: number, seed: number) => string;

/** `length` characters: `atSamples` exactly where the sampled estimate reads its windows, `between` everywhere else. */
export function sampledLayout(length: number, atSamples: string, between: Filler): string {
  const windows = Math.min(64, Math.max(4, Math.ceil(length / 8_192)));
  const stride = (length - 512) / (windows - 1);
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < windows; i++) {
    const start = Math.floor(i * stride);
    if (start > at) parts.push(between(start - at, i));
    parts.push(atSamples.slice(0, start + 512 - Math.max(at, start)));
    at = start + 512;
  }
  return parts.join('');
}

/** `chars` characters made by `unit(random)` repeated, cut to length. */
export function repeated(unit: (random: SeededRandom) => string): Filler {
  return (chars, seed) => {
    const random = new SeededRandom(seed + 1);
    const out: string[] = [];
    for (let length = 0; length < chars;) {
      const piece = unit(random);
      out.push(piece);
      length += piece.length;
    }
    return out.join('').slice(0, chars);
  };
}

/** A word of 1 to 12 letters made by `letter` and a space (one unbroken run of letters is one piece: quadratic for js-tiktoken). */
export function word(random: SeededRandom, letter: () => string): string {
  return Array.from({ length: 1 + random.int(12) }, letter).join('') + ' ';
}

const hex8 = (random: SeededRandom): string => random.next().toString(16).padStart(8, '0');

/** Dense fillers the estimate must bound: ASCII without spaces, and characters that are two tokens or more alone. */
export const DENSE_FILLERS: readonly (readonly [string, Filler])[] = [
  ['base64', base64Text],
  ['hex', hexText],
  ['a digit run', repeated((random) => String(random.int(10)))],
  ['minified JSON of numbers', repeated((random) => `{"id":${random.int(1e6)},"v":${random.unit()}},`)],
  ['UUIDs', repeated((random) => `"${hex8(random)}-4e2f-9a1b-${hex8(random)}c0de",`)],
  ['Hangul jamo', repeated((random) => word(random, () => String.fromCharCode(0x1100 + random.int(0x100))))],
  ['compatibility jamo', repeated((random) => word(random, () => String.fromCharCode(0x3131 + random.int(0x5e))))],
  [
    'letters with combining marks',
    repeated((random) => word(random, () => 'aeiou'[random.int(5)] + String.fromCharCode(0x300 + random.int(0x70)))),
  ],
];

/** What the sample windows hold: English prose, or Korean, Russian, Chinese and English words (every script class but the dense ones). */
export const SAMPLE_PROSE: readonly (readonly [string, string])[] = [
  ['English', 'The quick brown fox jumps over the lazy dog. '.repeat(12).slice(0, 512)],
  [
    'mixed scripts',
    '사용자 요청을 처리합니다. Запрос пользователя обработан. 上下文压缩完成。 The request is done. '
      .repeat(8)
      .slice(0, 512),
  ],
];
