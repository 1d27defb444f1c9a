/**
 * The tokenizer on its own:
 * - first use (loading the o200k ranks) and the heap it keeps;
 * - agreement with js-tiktoken's encode length on texts short enough to be
 *   counted whole and whose pieces are at most 128 UTF-8 bytes: how many are
 *   equal (all should be, but for runs of CJK, Hangul or kana letters, which
 *   are counted per letter), the total ratio and the largest difference;
 * - throughput of whole-text counting on 2 KB texts of each kind (the path every
 *   short content and every summary-prompt block takes);
 * - accuracy of the sampled estimate of 256 KB texts of each kind against the
 *   exact count.
 */
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { tiktokenTokenizer } from '../src/index.js';
import { SeededRandom } from '../src/testing/index.js';
import { PAYLOAD_KINDS, payloadText, type PayloadKind } from './lib/content.js';
import { exactO200kCount } from './lib/ground-truth.js';
import { settledHeap } from './lib/heap.js';
import { round } from './lib/stats.js';

export interface TokenizerLoad {
  readonly firstCallMs: number;
  readonly heapBytes: number;
}

/** Call before anything else touches the tokenizer. */
export function measureTokenizerLoad(): TokenizerLoad {
  const before = settledHeap();
  const started = performance.now();
  tiktokenTokenizer.count('first use loads the encoding');
  const firstCallMs = performance.now() - started;
  return { firstCallMs: round(firstCallMs, 1), heapBytes: Math.max(0, settledHeap() - before) };
}

export interface TokenizerKindRow {
  readonly kind: PayloadKind;
  /** Whole-text counting of 2 KB texts, MB of UTF-8 per second. */
  readonly exactMbPerSecond: number;
  /** Sampled estimate of a 256 KB text / exact o200k count. */
  readonly sampledRatio: number;
  readonly sampledMs: number;
}

export interface TokenizerReport {
  readonly equivalence: {
    readonly texts: number;
    readonly mismatches: number;
    /** Sum of our counts over the sum of js-tiktoken's. */
    readonly totalRatio: number;
    /** Largest difference on one text, in tokens. */
    readonly largestDifference: number;
    readonly examples: string[];
  };
  readonly kinds: TokenizerKindRow[];
}

const PIECE = new RegExp(o200kBase.pat_str, 'gu');

function longestPieceBytes(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(PIECE)) longest = Math.max(longest, Buffer.byteLength(match[0], 'utf8'));
  return longest;
}

function randomMixed(random: SeededRandom, length: number): string {
  let text = '';
  for (let j = 0; j < length; j++) {
    const k = random.int(12);
    if (k < 4) text += String.fromCharCode(32 + random.int(95));
    else if (k < 6) text += 'etaoinshrdlu'[random.int(12)];
    else if (k < 7) text += String.fromCharCode(0xa0 + random.int(0x2f00));
    else if (k < 8) text += String.fromCharCode(0x4e00 + random.int(0x5000));
    else if (k < 9) text += String.fromCodePoint(0x1f300 + random.int(0x2ff));
    else if (k < 10)
      text += String.fromCharCode(0xd800 + random.int(0x800)); // lone surrogates
    else text += ' \n\t\u00a0\u3000'[random.int(5)];
  }
  return text;
}

export function runTokenizerChecks(): TokenizerReport {
  const texts: string[] = [];
  for (const kind of PAYLOAD_KINDS) {
    for (let seed = 1; seed <= 60; seed++) {
      const text = payloadText(kind, 40 + ((seed * 331) % 4_000), seed);
      texts.push(text.slice(0, 2_048));
    }
  }
  const random = new SeededRandom(42);
  for (let i = 0; i < 400; i++) texts.push(randomMixed(random, 1 + random.int(600)));
  texts.push(
    'hello world',
    '<|endoftext|> special tokens are plain text <|endofprompt|>',
    "I'm sure they'RE right, WE'LL see",
    'e\u0301\u0301 combining marks',
  );
  let compared = 0;
  const examples: string[] = [];
  let mismatches = 0;
  let oursTotal = 0;
  let referenceTotal = 0;
  let largestDifference = 0;
  for (const text of texts) {
    if (text.length > 2_048 || longestPieceBytes(text) > 128) continue;
    compared++;
    const ours = tiktokenTokenizer.count(text);
    const reference = exactO200kCount(text);
    oursTotal += ours;
    referenceTotal += reference;
    largestDifference = Math.max(largestDifference, Math.abs(ours - reference));
    if (ours !== reference) {
      mismatches++;
      if (examples.length < 3) examples.push(`${JSON.stringify(text.slice(0, 60))}: ${ours} vs ${reference}`);
    }
  }

  const kinds: TokenizerKindRow[] = [];
  for (const kind of PAYLOAD_KINDS) {
    const chunks = Array.from({ length: 200 }, (_, i) =>
      payloadText(kind, kind === 'cjk' ? 700 : 2_048, 500 + i).slice(0, 2_048),
    );
    const bytes = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk, 'utf8'), 0);
    const started = performance.now();
    for (const chunk of chunks) tiktokenTokenizer.count(chunk);
    const exactSeconds = (performance.now() - started) / 1000;
    const long = payloadText(kind, kind === 'cjk' ? 90_000 : 262_144, 77);
    const sampledStarted = performance.now();
    const sampled = tiktokenTokenizer.count(long);
    const sampledMs = performance.now() - sampledStarted;
    kinds.push({
      kind,
      exactMbPerSecond: round(bytes / 1024 / 1024 / exactSeconds, 2),
      sampledRatio: round(sampled / exactO200kCount(long), 4),
      sampledMs: round(sampledMs),
    });
  }
  return {
    equivalence: {
      texts: compared,
      mismatches,
      totalRatio: round(oursTotal / referenceTotal, 5),
      largestDifference,
      examples,
    },
    kinds,
  };
}
