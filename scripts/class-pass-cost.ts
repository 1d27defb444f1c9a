/**
 * `npx tsx scripts/class-pass-cost.ts`: what the tokenizer's pass over a long text's character classes
 * costs (src/estimate/char-classes.ts), per million characters, beside the whole sampled count, on an
 * ASCII log, a log with one non-ASCII character first (the pass then walks every character) and CJK
 * prose. Median of 41 runs after 10 warm-up runs, on flat strings as JSON.parse and session services give them.
 */
import { classesOf } from '../src/estimate/char-classes.js';
import { tiktokenTokenizer } from '../src/estimate/tokenizer.js';
import { cjkText } from '../src/testing/hard-text.js';
import { logText } from '../src/testing/index.js';

const MILLION = 1_000_000;
const built: Record<string, string> = {
  'ASCII log': logText(MILLION, 1).slice(0, MILLION),
  'log after one é': ('é' + logText(MILLION, 2)).slice(0, MILLION),
  'CJK prose': cjkText(MILLION, 3),
};
const inputs = Object.entries(built).map(([name, text]) => [name, JSON.parse(JSON.stringify(text)) as string] as const);

function medianMs(run: () => void, runs = 41): number {
  for (let i = 0; i < 10; i++) run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[runs >> 1]!;
}

for (const [name, text] of inputs) {
  const pass = medianMs(() => classesOf(text));
  const count = medianMs(() => tiktokenTokenizer.count(text));
  console.log(`${name}: class pass ${pass.toFixed(2)} ms, whole count ${count.toFixed(2)} ms per million characters`);
}
