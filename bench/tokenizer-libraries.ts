/**
 * The own o200k counter beside two maintained o200k libraries, gpt-tokenizer and ai-tokenizer, on
 * 2 KB texts of every kind the benchmark measures. Each round gives every counter the same fresh
 * texts (new seeds, so no counter finds them in its cache from an earlier round), in a rotated
 * order; the figure is the median of the rounds, and the ratios are taken within this one run.
 * Issue #16's rule: a library that is within 1.5x of the own counter on every kind replaces it.
 */
import AiTokenizer from 'ai-tokenizer';
import * as aiO200k from 'ai-tokenizer/encoding/o200k_base';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { tiktokenTokenizer } from '../src/index.js';
import { PAYLOAD_KINDS, payloadText } from './lib/content.js';
import { quantile, round } from './lib/stats.js';
import { base64Text } from '../src/testing/index.js';
import { randomHan } from './worst-case.js';

/** A library within this factor of the own counter on every kind would replace it (issue #16). */
export const LIBRARY_RULE_FACTOR = 1.5;

const COUNTERS = ['own', 'gpt-tokenizer', 'ai-tokenizer'] as const;
type CounterName = (typeof COUNTERS)[number];

export interface LibraryKindRow {
  readonly kind: string;
  /** Median MB of UTF-8 per second over the rounds, by counter. */
  readonly mbPerSecond: Record<CounterName, number>;
  /** Own counter's rate over each library's (above 1: the own counter is faster). */
  readonly ownOver: Record<Exclude<CounterName, 'own'>, number>;
}

export interface LibraryComparison {
  /** First call of each library (loads its o200k ranks), ms; the own counter's is `TokenizerLoad`. */
  readonly firstUseMs: Record<Exclude<CounterName, 'own'>, number>;
  readonly rounds: number;
  readonly textsPerRound: number;
  readonly kinds: LibraryKindRow[];
  /** Per library: the largest own/library ratio over the kinds, and whether it is within the rule's factor. */
  readonly verdicts: {
    library: Exclude<CounterName, 'own'>;
    worstKind: string;
    worstRatio: number;
    withinRule: boolean;
  }[];
}

const ROUNDS = 5;
const TEXTS_PER_ROUND = 50;

/** Kinds: the payload kinds of the tokenizer section and the 2 KB shapes of the worst-case section. */
const KINDS: readonly [string, (seed: number) => string][] = [
  ...PAYLOAD_KINDS.map((kind): [string, (seed: number) => string] => [
    kind,
    (seed) => payloadText(kind, kind === 'cjk' ? 700 : 2_048, seed).slice(0, 2_048),
  ]),
  ['base64', (seed) => base64Text(2_048, seed)],
  ['random Han', (seed) => randomHan(683, seed)],
  // Runs of one character are one pre-tokenizer piece; lengths vary so that no piece repeats across rounds.
  ['spaces', (seed) => ' '.repeat(1_024 + (seed % 1_024))],
  ['ideographic spaces (U+3000)', (seed) => '\u3000'.repeat(342 + (seed % 341))],
];

function loadLibraries(): {
  counters: Record<CounterName, (text: string) => number>;
  firstUseMs: LibraryComparison['firstUseMs'];
} {
  let started = performance.now();
  countTokens('first use loads the encoding');
  const gptMs = performance.now() - started;
  started = performance.now();
  const ai = new AiTokenizer(aiO200k);
  ai.count('first use loads the encoding');
  const aiMs = performance.now() - started;
  return {
    counters: {
      own: (text) => tiktokenTokenizer.count(text),
      'gpt-tokenizer': (text) => countTokens(text),
      'ai-tokenizer': (text) => ai.count(text),
    },
    firstUseMs: { 'gpt-tokenizer': round(gptMs, 1), 'ai-tokenizer': round(aiMs, 1) },
  };
}

function measureKind(
  kind: string,
  make: (seed: number) => string,
  counters: Record<CounterName, (text: string) => number>,
): LibraryKindRow {
  const rates: Record<CounterName, number[]> = { own: [], 'gpt-tokenizer': [], 'ai-tokenizer': [] };
  for (let r = 0; r < ROUNDS; r++) {
    const texts = Array.from({ length: TEXTS_PER_ROUND }, (_, i) => make(10_000 + r * TEXTS_PER_ROUND + i));
    const megabytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0) / 1024 / 1024;
    for (let k = 0; k < COUNTERS.length; k++) {
      const name = COUNTERS[(r + k) % COUNTERS.length] as CounterName;
      const count = counters[name];
      const started = performance.now();
      for (const text of texts) count(text);
      rates[name].push(megabytes / ((performance.now() - started) / 1000));
    }
  }
  const mbPerSecond = {
    own: quantile(rates.own, 0.5),
    'gpt-tokenizer': quantile(rates['gpt-tokenizer'], 0.5),
    'ai-tokenizer': quantile(rates['ai-tokenizer'], 0.5),
  };
  return {
    kind,
    mbPerSecond: {
      own: round(mbPerSecond.own, 2),
      'gpt-tokenizer': round(mbPerSecond['gpt-tokenizer'], 2),
      'ai-tokenizer': round(mbPerSecond['ai-tokenizer'], 2),
    },
    ownOver: {
      'gpt-tokenizer': round(mbPerSecond.own / mbPerSecond['gpt-tokenizer'], 2),
      'ai-tokenizer': round(mbPerSecond.own / mbPerSecond['ai-tokenizer'], 2),
    },
  };
}

export function compareTokenizerLibraries(): LibraryComparison {
  const { counters, firstUseMs } = loadLibraries();
  const kinds = KINDS.map(([kind, make]) => measureKind(kind, make, counters));
  const verdicts = (['gpt-tokenizer', 'ai-tokenizer'] as const).map((library) => {
    const worst = kinds.reduce((a, b) => (b.ownOver[library] > a.ownOver[library] ? b : a));
    return {
      library,
      worstKind: worst.kind,
      worstRatio: worst.ownOver[library],
      withinRule: worst.ownOver[library] <= LIBRARY_RULE_FACTOR,
    };
  });
  return { firstUseMs, rounds: ROUNDS, textsPerRound: TEXTS_PER_ROUND, kinds, verdicts };
}
