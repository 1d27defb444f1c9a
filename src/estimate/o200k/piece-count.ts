/** Tokens of one pre-tokenizer piece: memoised, merged, or counted in chunks when longer than o200k's longest token. */
import { bytePairCount } from './bpe-merge.js';
import { heapPairCount, HEAP_MERGE_BYTES } from './heap-merge.js';
import { PACKED_BYTES } from './packed-table.js';
import { MEMO_PIECE_CHARS, pieceMemo, RUN_CHUNK_MEMO_LIMIT, runChunkMemo } from './piece-memo.js';
import { MAX_PIECE_BYTES, type Encoding } from './rank-tables.js';
import { utf8Binary } from './utf8.js';

/**
 * Tokens of a piece longer than `MAX_PIECE_BYTES`: chunks of at most that size, cut between characters.
 * `runUnit` is the UTF-16 unit the piece repeats, when it is a run of one character (blank space, a
 * line of '='): its chunks are then looked up by that unit and their length, across pieces and texts.
 */
function chunkedCount(bytes: string, encoding: Encoding, runUnit = -1): number {
  let tokens = 0;
  let from = 0;
  let previous = '';
  let previousCount = 0;
  while (from < bytes.length) {
    let to = Math.min(bytes.length, from + MAX_PIECE_BYTES);
    // Do not start the next chunk on a UTF-8 continuation byte (10xxxxxx) unless a character is longer than a chunk.
    if (to < bytes.length) {
      let cut = to;
      while (cut > from && (bytes.charCodeAt(cut) & 0xc0) === 0x80) cut--;
      if (cut > from) to = cut;
    }
    const chunk = bytes.slice(from, to);
    if (chunk !== previous) {
      // A long piece is already counted approximately (cut into chunks), so its chunks are merged directly,
      // without the whole-chunk token check; only runs of one character repeat their chunks across texts.
      const key = runUnit >= 0 ? runUnit * 256 + (to - from) : -1;
      const known = key >= 0 ? runChunkMemo.get(key) : undefined;
      previousCount =
        known ?? (to - from > HEAP_MERGE_BYTES ? heapPairCount(chunk, encoding) : bytePairCount(chunk, encoding));
      if (key >= 0 && known === undefined) {
        if (runChunkMemo.size >= RUN_CHUNK_MEMO_LIMIT) runChunkMemo.clear();
        runChunkMemo.set(key, previousCount);
      }
      previous = chunk;
    }
    tokens += previousCount;
    from = to;
  }
  return tokens;
}

/**
 * `pieceCount` for a prefix (a space, punctuation) and a short run of CJK, Hangul or kana letters: such
 * clauses rarely repeat, so they skip the piece memo. They are merged from bytes, exactly: a space merges
 * with a letter's first bytes and a three-letter token can take a path through its bytes that merging
 * from whole letters misses (" 启动完成" is four tokens, "\"服务器" two).
 */
export function letterPieceCount(piece: string, encoding: Encoding): number {
  return bytePairCount(utf8Binary(piece), encoding);
}

/** The UTF-16 unit `piece` repeats, when it is a run of one BMP character; -1 otherwise. */
function runUnitOf(piece: string): number {
  const unit = piece.charCodeAt(0);
  if (unit >= 0xd800 && unit <= 0xdfff) return -1;
  for (let i = 1; i < piece.length; i++) if (piece.charCodeAt(i) !== unit) return -1;
  return unit;
}

export function pieceCount(piece: string, encoding: Encoding): number {
  const chars = piece.length;
  // One ASCII character is one token (every byte is).
  if (chars === 1 && piece.charCodeAt(0) < 0x80) return 1;
  let bytes: string | undefined;
  if (chars <= PACKED_BYTES) {
    // Short pieces are cheaper to merge than to memoise.
    bytes = utf8Binary(piece);
    if (bytes.length <= PACKED_BYTES) return bytePairCount(bytes, encoding);
  }
  const memoised = chars <= MEMO_PIECE_CHARS;
  if (memoised) {
    const known = pieceMemo.get(piece);
    if (known !== undefined) return known;
  }
  bytes ??= utf8Binary(piece);
  const count =
    bytes.length > MAX_PIECE_BYTES ? chunkedCount(bytes, encoding, runUnitOf(piece)) : bytePairCount(bytes, encoding);
  if (memoised) pieceMemo.set(piece, count);
  return count;
}
