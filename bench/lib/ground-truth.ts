/**
 * The benchmark's ground truth: js-tiktoken's `o200k_base`, encoded whole
 * (no run splitting, no sampling), memoised per text. It is what the guard's
 * tokenizer approximates, so the ratio estimate / ground truth isolates the
 * estimator's own error (sampling, run cuts, per-part framing), not the
 * difference between two vocabularies, which calibration absorbs.
 *
 * Only realistic content goes through it: encoding a long run without
 * whitespace whole is quadratic (that is what the guard's tokenizer avoids).
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { Tokenizer } from '../../src/index.js';
import { memoizedTokenizer } from '../../src/testing/index.js';

let encoder: Tiktoken | undefined;

/** Exact o200k count of `text`. */
export function exactO200kCount(text: string): number {
  if (text.length === 0) return 0;
  encoder ??= new Tiktoken(o200kBase);
  return encoder.encode(text, [], []).length;
}

/** A memoised exact o200k tokenizer (bounded memo; ADK rebuilds the same texts on every step). */
export function exactO200kTokenizer(limit = 200_000): Tokenizer {
  return memoizedTokenizer({ name: 'o200k (exact)', count: exactO200kCount }, limit);
}
