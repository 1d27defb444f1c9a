/**
 * A log-like prose document of at least `tokens` by the guard's own tokenizer (o200k), for tests of how much of a
 * window a message takes.
 */
import { tiktokenTokenizer } from '../../src/index.js';
import { payloadText } from './payloads.js';

export function proseOfShare(tokens: number): string {
  for (let chars = 20_000; ; chars += 1_000) {
    const text = `Read this log: ${payloadText('prose', chars, 5)}`;
    if (tiktokenTokenizer.count(text) >= tokens) return text;
  }
}
