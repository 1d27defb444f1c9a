/**
 * `ROOT=<tree> npx tsx scripts/dense-between-samples.ts`: the tokenizer's estimate of hostile layouts (dense
 * text everywhere but the 512-character windows a sampled estimate reads, English or mixed-script prose in
 * them) over js-tiktoken's o200k count, at 50,000 and 400,000 characters, in the tree at ROOT (this checkout
 * by default): the figures of docs/performance.md, "Dense text between the samples".
 */
import { fileURLToPath } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { base64Text, cjkText, hexText } from '../src/testing/hard-text.js';
import { SeededRandom } from '../src/testing/seeded-random.js';

const root = process.env['ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));
const { tiktokenTokenizer } = (await import(
  `${root}/src/estimate/tokenizer.ts`
)) as typeof import('../src/estimate/tokenizer.js');
const reference = new Tiktoken(o200kBase);

type Filler = (chars: number, seed: number) => string;

function layout(length: number, atSamples: string, between: Filler): string {
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

function repeated(unit: (random: SeededRandom) => string): Filler {
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

const word = (random: SeededRandom, letter: () => string): string =>
  Array.from({ length: 1 + random.int(12) }, letter).join('') + ' ';
const hex8 = (random: SeededRandom): string => random.next().toString(16).padStart(8, '0');
const fillers: [string, Filler][] = [
  ['base64', base64Text],
  ['hex', hexText],
  ['digit run', repeated((random) => String(random.int(10)))],
  ['minified JSON of numbers', repeated((random) => `{"id":${random.int(1e6)},"v":${random.unit()}},`)],
  ['UUID-like ids', repeated((random) => `"${hex8(random)}-4e2f-9a1b-${hex8(random)}c0de",`)],
  ['random printable ASCII', repeated((random) => String.fromCharCode(33 + random.int(94)))],
  ['Hangul jamo', repeated((random) => word(random, () => String.fromCharCode(0x1100 + random.int(0x100))))],
  ['compatibility jamo', repeated((random) => word(random, () => String.fromCharCode(0x3131 + random.int(0x5e))))],
  [
    'combining marks',
    repeated((random) => word(random, () => 'aeiou'[random.int(5)] + String.fromCharCode(0x300 + random.int(0x70)))),
  ],
  ['CJK prose', cjkText],
  ['random Han', repeated((random) => String.fromCharCode(0x4e00 + random.int(0x5000)) + (random.int(8) ? '' : '，'))],
];
const samples: [string, string][] = [
  ['English', 'The quick brown fox jumps over the lazy dog. '.repeat(12).slice(0, 512)],
  [
    'mixed scripts',
    '사용자 요청을 처리합니다. Запрос пользователя обработан. 上下文压缩完成。 The request is done. '
      .repeat(8)
      .slice(0, 512),
  ],
];

console.log('| between the samples | samples | 50,000 chars | 400,000 chars |\n|---|---|---|---|');
for (const [name, between] of fillers)
  for (const [samplesName, atSamples] of samples) {
    const ratios = [50_000, 400_000].map((length) => {
      const text = layout(length, atSamples, between);
      return (tiktokenTokenizer.count(text) / reference.encode(text, [], []).length).toFixed(2);
    });
    console.log(`| ${name} | ${samplesName} | ${ratios.join(' | ')} |`);
  }
