/**
 * A user's tokenizer, checked on every count: a count that is not a finite
 * number >= 0 (NaN, Infinity, negative, a thrown error) would make every
 * comparison with the threshold false and silently disable compaction, so it
 * is replaced by the built-in count of the same text, and reported once.
 */
import { tiktokenTokenizer, type Tokenizer } from './tokenizer.js';

/** `inner`, with unusable counts replaced by `fallback`'s; `onInvalid` is called once, with the first bad value. */
export function checkedTokenizer(
  inner: Tokenizer,
  onInvalid: (value: unknown) => void,
  fallback: Tokenizer = tiktokenTokenizer,
): Tokenizer {
  if (inner === fallback) return inner;
  let reported = false;
  return {
    name: inner.name,
    count(text: string): number {
      let value: unknown;
      try {
        value = inner.count(text);
      } catch (error) {
        value = error;
      }
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
      if (!reported) {
        reported = true;
        onInvalid(value);
      }
      return fallback.count(text);
    },
  };
}
