/**
 * `ROOT=<tree> npx tsx scripts/dense-between-samples.ts`: the tokenizer's estimate of hostile layouts (dense
 * text everywhere but the 512-character windows a sampled estimate reads, English or mixed-script prose in
 * them) over js-tiktoken's o200k count, at 50,000 and 400,000 characters, in the tree at ROOT (this checkout
 * by default): the figures of docs/performance.md, "Dense text between the samples".
 */
import { fileURLToPath } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { cjkText } from '../src/testing/hard-text.js';
import { DENSE_FILLERS, repeated, SAMPLE_PROSE, sampledLayout, type Filler } from '../test/support/dense-layouts.js';

const root = process.env['ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));
const { tiktokenTokenizer } = (await import(
  `${root}/src/estimate/tokenizer.ts`
)) as typeof import('../src/estimate/tokenizer.js');
const reference = new Tiktoken(o200kBase);

const fillers: (readonly [string, Filler])[] = [
  ...DENSE_FILLERS,
  ['random printable ASCII', repeated((random) => String.fromCharCode(33 + random.int(94)))],
  ['CJK prose', cjkText],
  ['random Han', repeated((random) => String.fromCharCode(0x4e00 + random.int(0x5000)) + (random.int(8) ? '' : '，'))],
];

console.log('| between the samples | samples | 50,000 chars | 400,000 chars |\n|---|---|---|---|');
for (const [name, between] of fillers)
  for (const [samplesName, atSamples] of SAMPLE_PROSE) {
    const ratios = [50_000, 400_000].map((length) => {
      const text = sampledLayout(length, atSamples, between);
      return (tiktokenTokenizer.count(text) / reference.encode(text, [], []).length).toFixed(2);
    });
    console.log(`| ${name} | ${samplesName} | ${ratios.join(' | ')} |`);
  }
