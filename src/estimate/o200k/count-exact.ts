/** The exact count of a text: pieces from the pre-tokenizer, each counted by the cheapest mechanism that fits it. */
import { scanPairCount } from './bpe-merge.js';
import { plainRunCount, letterTokens } from './letter-runs.js';
import { PACKED_BYTES, packedRank } from './packed-table.js';
import { letterPieceCount, pieceCount } from './piece-count.js';
import { asciiPieceEnd, letterRunEnd, prefixedRunEnd } from './pre-tokenizer.js';
import { loadEncoding, MAX_PIECE_BYTES } from './rank-tables.js';

export function countExact(text: string): number {
  if (text.length === 0) return 0;
  const encoding = loadEncoding();
  const pattern = encoding.pattern;
  let tokens = 0;
  let p = 0;
  while (p < text.length) {
    const asciiEnd = asciiPieceEnd(text, p);
    const runEnd = asciiEnd < 0 ? letterRunEnd(text, p) : -1;
    const prefixedEnd = asciiEnd < 0 && runEnd < 0 ? prefixedRunEnd(text, p) : -1;
    let end: number;
    if (asciiEnd >= 0 && asciiEnd - p <= PACKED_BYTES) {
      // An ASCII piece of up to 6 characters: usually one token, found without making a string.
      end = asciiEnd;
      const length = end - p;
      if (length === 1) tokens += 1;
      else if (length === 2)
        tokens += (encoding.pairs[(text.charCodeAt(p) << 8) | text.charCodeAt(p + 1)] as number) >= 0 ? 1 : 2;
      else tokens += packedRank(encoding.packed, text, p, end) >= 0 ? 1 : scanPairCount(text, p, end, encoding);
    } else if (runEnd >= 0) {
      end = runEnd;
      tokens += plainRunCount(text, p, end, encoding);
    } else if (prefixedEnd >= 0) {
      end = prefixedEnd;
      const bytes = (text.charCodeAt(p) < 0x80 ? 1 : 3) + 3 * (end - p - 1);
      tokens +=
        bytes > MAX_PIECE_BYTES
          ? letterTokens(text.charCodeAt(p), encoding) + plainRunCount(text, p + 1, end, encoding)
          : letterPieceCount(text.slice(p, end), encoding);
    } else {
      end = asciiEnd;
      if (end < 0) {
        pattern.lastIndex = p;
        end = pattern.exec(text) !== null ? pattern.lastIndex : p + 1;
        // The pattern matches at every position; a step of one guards against an endless loop all the same.
        if (end <= p) end = p + 1;
      }
      tokens += pieceCount(text.slice(p, end), encoding);
    }
    p = end;
  }
  return tokens;
}
