/**
 * Token counting for estimates.
 *
 * The base count comes from the `o200k_base` encoding (the vocabulary that
 * js-tiktoken ships), which is close to (and usually above) Gemini's
 * SentencePiece counts for prose and code; the calibration factor learned from
 * the provider's real counts covers the rest.
 *
 * The counter is o200k's own algorithm, reimplemented for counting (see
 * docs/performance.md): the text is split into pieces by o200k's pre-tokenizer
 * pattern (worked out directly for ASCII, the regular expression elsewhere),
 * and each piece is counted by byte-pair merging over the encoding's ranks.
 * For a text of up to 2,048 characters of one- and two-byte scripts (Latin,
 * Cyrillic, Greek, Arabic, Hebrew...) whose pieces are at most 128 UTF-8 bytes
 * long the count is exactly js-tiktoken's. A run of CJK, Hangul or kana letters
 * with nothing before it (no space or punctuation in the same piece) is counted
 * per letter (see `plainRunCount`): within 2% of js-tiktoken on mixed text and
 * within two tokens and 1% on any text (property tests in tokenizer.test.ts).
 * The cost stays linear and bounded:
 * - BPE is quadratic in the length of one piece (a 10 KB run of one character
 *   takes seconds in js-tiktoken, 2 KB of blank space half a second), so a
 *   longer piece is counted in chunks of at most 128 bytes cut at character
 *   boundaries (a token or so more per cut), and a piece over 24 bytes takes
 *   its lowest pair from a heap rather than a scan;
 * - ranks are looked up without building strings for tokens of up to 6 bytes
 *   (typed-array tables), and pieces repeat (words, keys, indentation), so
 *   counts of pieces up to 64 characters are memoised (bounded); a run of one
 *   character repeats its chunks, so an equal chunk reuses the previous count;
 * - the end of an ASCII piece, and of a run of CJK, Hangul or kana letters
 *   (with or without a space or punctuation before it), is found without the
 *   pattern's regular expression;
 * - a long text is estimated from evenly spaced samples rather than encoded
 *   whole: one window of 512 characters per 8K (6%), 4 to 64 windows, so a
 *   text over 512K costs 32K characters of counting. Fewer windows (one per
 *   64K) put a joined content of 200 JSON results 18% over its part-by-part
 *   count; one per 8K, 6%.
 */
import o200kBase from 'js-tiktoken/ranks/o200k_base';

/** Counts the tokens of a text. Swap it through `ContextGuardOptions.tokenizer`. */
export interface Tokenizer {
  /** A short name for logs and reports. */
  readonly name: string;
  /** Number of tokens in `text`; must be fast and never throw. */
  count(text: string): number;
}

/** Pieces longer than this many UTF-8 bytes are counted in chunks (o200k's longest token is 128 bytes). */
const MAX_PIECE_BYTES = 128;
/** Pieces up to this many UTF-16 units are memoised. */
const MEMO_PIECE_CHARS = 64;
/** Entries of the piece memo before it is cleared (pieces of up to 64 UTF-16 units: a few MB at most). */
const PIECE_MEMO_LIMIT = 50_000;
/** Texts up to this many characters are encoded whole. */
const EXACT_LIMIT = 2048;
/** Size of one sample window of a long text. */
const SAMPLE_CHARS = 512;
/** One sample window per this many characters of a long text (at least 4, at most 64 windows). */
const CHARS_PER_SAMPLE = 8_192;
/** Safety margin on the extrapolated part of a sampled estimate. */
const SAMPLED_MARGIN = 1.05;

interface Encoding {
  /** Rank of every token longer than `PACKED_BYTES`, by its bytes as a binary (one char per byte) string. */
  readonly ranks: Map<string, number>;
  /** Rank of every two-byte token at `first << 8 | second`, -1 when the pair is not a token (the most frequent lookup). */
  readonly pairs: Int32Array;
  /** Tokens of 1 to `PACKED_BYTES` bytes in an open-addressing table keyed by their packed bytes (no string, no Map). */
  readonly packed: PackedTable;
  /** Length in bytes of the longest token. */
  readonly maxTokenBytes: number;
  /** o200k's pre-tokenizer, sticky (it matches at every position), without capture groups. */
  readonly pattern: RegExp;
}

/** Tokens up to this many bytes go in the packed table. */
const PACKED_BYTES = 6;
const PACKED_BITS = 18;

/**
 * Open addressing (linear probing) in one typed array of [low, high, rank] slots, so a probe reads one
 * cache line: `low` is bytes 0-3 of the token, `high` bytes 4-5 plus the length (never 0 in a used slot).
 * A 128 KB bit filter in front answers most lookups of candidates that are not tokens (two thirds of
 * the lookups in CJK text) without touching the 3 MB table.
 */
interface PackedTable {
  readonly slots: Int32Array;
  readonly filter: Uint32Array;
}

const FILTER_BITS = 20;

function filterBit(low: number, high: number): number {
  return Math.imul(low ^ Math.imul(high, 0x27d4eb2d), 0x165667b1) >>> (32 - FILTER_BITS);
}

function packedSlot(low: number, high: number): number {
  return (Math.imul(low, 0x9e3779b1) ^ Math.imul(high ^ (low >>> 15), 0x85ebca6b)) >>> (32 - PACKED_BITS);
}

function packedInsert(table: PackedTable, bytes: readonly number[], rank: number): void {
  let low = 0;
  let high = bytes.length << 16;
  for (let i = 0; i < bytes.length; i++) {
    if (i < 4) low |= (bytes[i] as number) << (8 * i);
    else high |= (bytes[i] as number) << (8 * (i - 4));
  }
  const mask = (1 << PACKED_BITS) - 1;
  const slots = table.slots;
  let slot = packedSlot(low, high);
  while (slots[slot * 3 + 1] !== 0 && !(slots[slot * 3] === low && slots[slot * 3 + 1] === high)) slot = (slot + 1) & mask;
  slots[slot * 3] = low;
  slots[slot * 3 + 1] = high;
  slots[slot * 3 + 2] = rank;
  const bit = filterBit(low, high);
  table.filter[bit >>> 5]! |= 1 << (bit & 31);
}

/** Rank of the token `bytes[from, to)` (at most PACKED_BYTES long), or -1. */
function packedRank(table: PackedTable, bytes: string, from: number, to: number): number {
  let low = 0;
  let high = (to - from) << 16;
  for (let i = from; i < to; i++) {
    const shift = 8 * (i - from);
    if (shift < 32) low |= bytes.charCodeAt(i) << shift;
    else high |= bytes.charCodeAt(i) << (shift - 32);
  }
  return packedLookup(table, low, high);
}

/** Rank of the token packed as `low` (bytes 0-3) and `high` (bytes 4-5 and the length << 16), or -1. */
function packedLookup(table: PackedTable, low: number, high: number): number {
  const bit = filterBit(low, high);
  if (((table.filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return -1;
  const slots = table.slots;
  let at = packedSlot(low, high) * 3;
  for (;;) {
    const stored = slots[at + 1] as number;
    if (stored === 0) return -1;
    if (stored === high && slots[at] === low) return slots[at + 2] as number;
    at += 3;
    if (at >= slots.length) at = 0;
  }
}

let shared: Encoding | undefined;

const BASE64 = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/**
 * Reads js-tiktoken's rank file: lines of `<marker> <first rank> <base64 token> <base64 token>...`,
 * ranks consecutive from the first (the format js-tiktoken's `Tiktoken` constructor parses).
 */
function loadEncoding(): Encoding {
  if (shared) return shared;
  const source = o200kBase.bpe_ranks;
  const ranks = new Map<string, number>();
  const pairs = new Int32Array(65_536).fill(-1);
  const packed: PackedTable = { slots: new Int32Array(3 << PACKED_BITS), filter: new Uint32Array(1 << (FILTER_BITS - 5)) };
  const bytes: number[] = [];
  let maxTokenBytes = 1;
  let position = 0;
  while (position < source.length) {
    let end = source.indexOf('\n', position);
    if (end < 0) end = source.length;
    const markerEnd = source.indexOf(' ', position);
    if (markerEnd > position && markerEnd < end) {
      let cursor = source.indexOf(' ', markerEnd + 1);
      if (cursor < 0 || cursor > end) cursor = end;
      let rank = Number.parseInt(source.slice(markerEnd + 1, cursor), 10);
      cursor++;
      while (cursor < end) {
        bytes.length = 0;
        let accumulator = 0;
        let bits = 0;
        for (; cursor < end; cursor++) {
          const code = source.charCodeAt(cursor);
          if (code === 0x20) break;
          const value = BASE64[code] ?? -1;
          if (value < 0) continue; // '=' padding
          accumulator = (accumulator << 6) | value;
          bits += 6;
          if (bits >= 8) {
            bits -= 8;
            bytes.push((accumulator >> bits) & 0xff);
          }
        }
        cursor++;
        if (bytes.length === 0) continue;
        if (bytes.length === 2) pairs[((bytes[0] as number) << 8) | (bytes[1] as number)] = rank;
        if (bytes.length <= PACKED_BYTES) packedInsert(packed, bytes, rank++);
        else ranks.set(String.fromCharCode.apply(null, bytes), rank++);
        if (bytes.length > maxTokenBytes) maxTokenBytes = bytes.length;
      }
    }
    position = end + 1;
  }
  // Capture groups are not needed for splitting; non-capturing ones make each match cheaper.
  const pattern = new RegExp(o200kBase.pat_str.replace(/(^|[^\\])\((?!\?)/g, '$1(?:'), 'uy');
  shared = { ranks, pairs, packed, maxTokenBytes, pattern };
  return shared;
}

/** UTF-8 bytes of `text` as a binary string; lone surrogates become U+FFFD, as TextEncoder does. */
function utf8Binary(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text;
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      out.push(code);
      continue;
    }
    if (code < 0x800) {
      out.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
        out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
        continue;
      }
      code = 0xfffd;
    }
    out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  let binary = '';
  for (let i = 0; i < out.length; i += 4096) binary += String.fromCharCode.apply(null, out.slice(i, i + 4096));
  return binary;
}

// Scratch space for one merge (pieces are at most MAX_PIECE_BYTES long): no allocation per piece.
const starts = new Int32Array(MAX_PIECE_BYTES + 1);
const pairRanks = new Float64Array(MAX_PIECE_BYTES);

function rankOf(bytes: string, from: number, to: number, encoding: Encoding): number {
  const length = to - from;
  if (length === 2) {
    const rank = encoding.pairs[(bytes.charCodeAt(from) << 8) | bytes.charCodeAt(from + 1)] as number;
    return rank < 0 ? Number.POSITIVE_INFINITY : rank;
  }
  if (length <= PACKED_BYTES) {
    const rank = packedRank(encoding.packed, bytes, from, to);
    return rank < 0 ? Number.POSITIVE_INFINITY : rank;
  }
  if (length > encoding.maxTokenBytes) return Number.POSITIVE_INFINITY;
  return encoding.ranks.get(bytes.slice(from, to)) ?? Number.POSITIVE_INFINITY;
}

/** True when all of `bytes` is one token. */
function isToken(bytes: string, encoding: Encoding): boolean {
  return bytes.length <= PACKED_BYTES ? packedRank(encoding.packed, bytes, 0, bytes.length) >= 0 : encoding.ranks.has(bytes);
}

/** Pieces longer than this many bytes are merged through a heap rather than by scanning for the lowest pair. */
const HEAP_MERGE_BYTES = 24;

// Scratch space for the heap merge: neighbours by start offset (-1 for a part merged away), the rank of each
// part merged with the next, and a binary heap of rank * 256 + start (lowest rank first, leftmost on a tie).
const nextStart = new Int32Array(MAX_PIECE_BYTES + 1);
const previousStart = new Int32Array(MAX_PIECE_BYTES + 1);
const rankAtStart = new Float64Array(MAX_PIECE_BYTES + 1);
const heap = new Float64Array(MAX_PIECE_BYTES * 3 + 8);

function heapPush(size: number, key: number): number {
  let at = size;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    const above = heap[parent] as number;
    if (above <= key) break;
    heap[at] = above;
    at = parent;
  }
  heap[at] = key;
  return size + 1;
}

/** Removes the smallest key (heap[0], read by the caller first); returns the new size. */
function heapPop(size: number): number {
  const last = heap[size - 1] as number;
  const length = size - 1;
  let at = 0;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= length) break;
    if (child + 1 < length && (heap[child + 1] as number) < (heap[child] as number)) child++;
    if ((heap[child] as number) >= last) break;
    heap[at] = heap[child] as number;
    at = child;
  }
  heap[at] = last;
  return length;
}

/**
 * `bytePairCount` for longer pieces: the same merges in the same order, with the lowest pair taken from a
 * heap (stale entries skipped when popped) instead of a scan of every pair, so a 128-byte piece of rare
 * characters costs O(n log n) rather than O(n^2).
 */
function heapPairCount(bytes: string, encoding: Encoding): number {
  const length = bytes.length;
  let size = 0;
  for (let i = 0; i < length; i++) {
    nextStart[i] = i + 1;
    previousStart[i] = i - 1;
    const rank = i + 1 < length ? rankOf(bytes, i, i + 2, encoding) : Number.POSITIVE_INFINITY;
    rankAtStart[i] = rank;
    if (rank !== Number.POSITIVE_INFINITY) size = heapPush(size, rank * 256 + i);
  }
  let parts = length;
  while (size > 0) {
    const key = heap[0] as number;
    size = heapPop(size);
    const start = key % 256;
    const rank = (key - start) / 256;
    if (nextStart[start] === -1 || rankAtStart[start] !== rank) continue; // stale
    // Merge the part at `start` with the next one.
    const merged = nextStart[start] as number;
    const after = nextStart[merged] as number;
    nextStart[start] = after;
    nextStart[merged] = -1;
    if (after < length) previousStart[after] = start;
    parts--;
    const own = after < length ? rankOf(bytes, start, nextStart[after] as number, encoding) : Number.POSITIVE_INFINITY;
    rankAtStart[start] = own;
    if (own !== Number.POSITIVE_INFINITY) size = heapPush(size, own * 256 + start);
    const before = previousStart[start] as number;
    if (before >= 0) {
      const left = rankOf(bytes, before, after, encoding);
      rankAtStart[before] = left;
      if (left !== Number.POSITIVE_INFINITY) size = heapPush(size, left * 256 + before);
    }
  }
  return parts;
}

/**
 * Tokens of one piece (a binary string of at most `MAX_PIECE_BYTES` bytes): the
 * number of parts left once byte-pair merging stops. The lowest-ranked adjacent
 * pair is merged first, the leftmost on a tie, exactly as js-tiktoken does; only
 * the two pairs next to a merge are looked up again.
 */
function bytePairCount(bytes: string, encoding: Encoding): number {
  const length = bytes.length;
  if (length <= 1) return length;
  if (length === 2) return encoding.pairs[(bytes.charCodeAt(0) << 8) | bytes.charCodeAt(1)]! >= 0 ? 1 : 2;
  if (isToken(bytes, encoding)) return 1;
  if (length > HEAP_MERGE_BYTES) return heapPairCount(bytes, encoding);
  return scanPairCount(bytes, 0, length, encoding);
}

/**
 * The merge of `bytes[from, to)` (at most `HEAP_MERGE_BYTES` long, not itself a token) by scanning for the
 * lowest pair, in place: a short ASCII piece is merged inside its text, without a copy.
 */
function scanPairCount(bytes: string, from: number, to: number, encoding: Encoding): number {
  const length = to - from;
  // starts[i] is where part i begins; pairRanks[i] is the rank of part i merged with part i + 1.
  for (let i = 0; i <= length; i++) starts[i] = from + i;
  for (let i = 0; i < length - 1; i++) pairRanks[i] = rankOf(bytes, from + i, from + i + 2, encoding);
  let parts = length;
  while (parts > 1) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      const rank = pairRanks[i] as number;
      if (rank < best) {
        best = rank;
        at = i;
      }
    }
    if (at < 0) break;
    // Merge parts `at` and `at + 1`: drop the boundary between them (a plain loop: at most 24 entries,
    // where a copyWithin call costs more than the copy).
    for (let i = at + 1; i < parts; i++) starts[i] = starts[i + 1] as number;
    for (let i = at + 1; i < parts - 1; i++) pairRanks[i] = pairRanks[i + 1] as number;
    parts--;
    pairRanks[at] = at + 1 < parts ? rankOf(bytes, starts[at] as number, starts[at + 2] as number, encoding) : Number.POSITIVE_INFINITY;
    if (at > 0) pairRanks[at - 1] = rankOf(bytes, starts[at - 1] as number, starts[at + 1] as number, encoding);
  }
  return parts;
}

/** A memo of counts that is cleared when full (bounded memory, no bookkeeping per hit). */
class CountMemo {
  private entries = new Map<string, number>();

  constructor(private readonly limit: number) {}

  get(key: string): number | undefined {
    return this.entries.get(key);
  }

  set(key: string, count: number): void {
    if (this.entries.size >= this.limit) this.entries = new Map();
    // A short substring is a copy; a longer one may be a slice that keeps its whole source text alive.
    this.entries.set(key.length < 13 ? key : detach(key), count);
  }
}

/** A copy of `text` that does not share storage with a larger string. */
function detach(text: string): string {
  return (' ' + text).slice(1);
}

const pieceMemo = new CountMemo(PIECE_MEMO_LIMIT);

/** Counts of the chunks of runs of one character, by character code and chunk length. */
const runChunkMemo = new Map<number, number>();
/** Entries of `runChunkMemo` before it is cleared (at most 128 chunk lengths per character). */
const RUN_CHUNK_MEMO_LIMIT = 4_096;

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
      previousCount = known ?? (to - from > HEAP_MERGE_BYTES ? heapPairCount(chunk, encoding) : bytePairCount(chunk, encoding));
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
function letterPieceCount(piece: string, encoding: Encoding): number {
  return bytePairCount(utf8Binary(piece), encoding);
}

/** The UTF-16 unit `piece` repeats, when it is a run of one BMP character; -1 otherwise. */
function runUnitOf(piece: string): number {
  const unit = piece.charCodeAt(0);
  if (unit >= 0xd800 && unit <= 0xdfff) return -1;
  for (let i = 1; i < piece.length; i++) if (piece.charCodeAt(i) !== unit) return -1;
  return unit;
}

function pieceCount(piece: string, encoding: Encoding): number {
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
  const count = bytes.length > MAX_PIECE_BYTES ? chunkedCount(bytes, encoding, runUnitOf(piece)) : bytePairCount(bytes, encoding);
  if (memoised) pieceMemo.set(piece, count);
  return count;
}

// Character classes of o200k's pattern, for ASCII (every code below 0x80).
const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
const SPACE = 8; // \s
const NEWLINE = 16; // \r \n
const OTHER = 32; // [^\s\p{L}\p{N}]
const ASCII_CLASS = (() => {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    if (code >= 0x41 && code <= 0x5a) table[code] = UPPER;
    else if (code >= 0x61 && code <= 0x7a) table[code] = LOWER;
    else if (code >= 0x30 && code <= 0x39) table[code] = DIGIT;
    else if (code === 0x0a || code === 0x0d) table[code] = SPACE | NEWLINE;
    else if ((code >= 0x09 && code <= 0x0c) || code === 0x20) table[code] = SPACE;
    else table[code] = OTHER;
  }
  return table;
})();

/** Class of the character at `i` (0 past the end), or -1 when it is not ASCII. */
function classAt(text: string, i: number): number {
  if (i >= text.length) return 0;
  const code = text.charCodeAt(i);
  return code < 0x80 ? (ASCII_CLASS[code] as number) : -1;
}

/** End of an optional contraction ('s, 't, 're, 've, 'm, 'll, 'd in any case) at `i`. */
function contractionEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return i;
  const a = text.charCodeAt(i + 1) | 0x20;
  if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return i + 2; // s t m d
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x72 && b === 0x65) || (a === 0x76 && b === 0x65) || (a === 0x6c && b === 0x6c)) return i + 3; // re ve ll
  return i;
}

/**
 * End of the piece o200k's pattern matches at `p`, worked out directly for
 * ASCII, or -1 when a character the pattern would look at is not ASCII (the
 * caller then runs the pattern itself). The alternatives, in the pattern's order:
 * 1-2. an optional prefix character (not a letter, digit, \r or \n) and a word:
 *      uppercase letters then lowercase ones (at least one of either), and a contraction;
 * 3.   one to three digits;
 * 4.   an optional space, punctuation, then any \r, \n and /;
 * 5.   whitespace up to and including its last \r or \n;
 * 6-7. whitespace, less its last character when something follows.
 */
function asciiPieceEnd(text: string, p: number): number {
  const length = text.length;
  const first = classAt(text, p);
  if (first < 0) return -1;
  let word = -1;
  if (first & (UPPER | LOWER)) {
    word = p;
  } else if (!(first & (DIGIT | NEWLINE))) {
    const next = classAt(text, p + 1);
    if (next < 0) return -1;
    if (next & (UPPER | LOWER)) word = p + 1;
  }
  if (word >= 0) {
    let i = word;
    let c = classAt(text, i);
    while (c === UPPER) c = classAt(text, ++i);
    while (c === LOWER) c = classAt(text, ++i);
    if (c < 0) return -1;
    return contractionEnd(text, i);
  }
  if (first & DIGIT) {
    let i = p + 1;
    while (i < p + 3 && classAt(text, i) === DIGIT) i++;
    if (i < p + 3 && classAt(text, i) < 0) return -1;
    return i;
  }
  const punctuation = text.charCodeAt(p) === 0x20 ? p + 1 : p;
  const at = classAt(text, punctuation);
  if (at === OTHER) {
    let i = punctuation + 1;
    let c = classAt(text, i);
    while (c === OTHER) c = classAt(text, ++i);
    if (c < 0) return -1;
    while (i < length) {
      const code = text.charCodeAt(i);
      if (code !== 0x0a && code !== 0x0d && code !== 0x2f) break;
      i++;
    }
    return i;
  }
  if (at < 0) return -1;
  // Whitespace (the prefix case above took a space or tab before a letter).
  let end = p;
  let afterNewline = -1;
  let c = first;
  while (c > 0 && c & SPACE) {
    if (c & NEWLINE) afterNewline = end + 1;
    c = classAt(text, ++end);
  }
  if (c < 0) return -1;
  if (afterNewline >= 0) return afterNewline;
  if (end === length || end - p === 1) return end;
  return end - 1;
}

/**
 * True for a code unit that is a letter in both of o200k's letter classes (\p{Lo}): CJK unified
 * ideographs, Hangul syllables, hiragana and katakana. A run of them is one piece.
 */
function isPlainLetter(code: number): boolean {
  return (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0x3041 && code <= 0x3096) || (code >= 0x30a1 && code <= 0x30fa);
}

/** True for a code unit that ends a letter run: ASCII other than letters and the apostrophe, and common CJK punctuation. */
function endsLetterRun(code: number): boolean {
  if (code < 0x80) return (ASCII_CLASS[code] as number) & (UPPER | LOWER) ? false : code !== 0x27;
  return isCjkPunctuation(code);
}

/** CJK punctuation that ends a letter run. */
function isCjkPunctuation(code: number): boolean {
  switch (code) {
    case 0x3001: case 0x3002: case 0x300c: case 0x300d: case 0x300e: case 0x300f: case 0x3010: case 0x3011:
    case 0xff01: case 0xff08: case 0xff09: case 0xff0c: case 0xff1a: case 0xff1b: case 0xff1f:
    case 0x2018: case 0x2019: case 0x201c: case 0x201d: case 0x2026:
      return true;
    default:
      return false;
  }
}

/**
 * End of the piece at `p` when it is a run of plain letters (see `isPlainLetter`) ended by the text's end or
 * by `endsLetterRun`: the pattern's first alternative matches exactly that run. -1 otherwise (the caller runs
 * the pattern). A run after a prefix (a space, punctuation) is found by `prefixedRunEnd`.
 */
function letterRunEnd(text: string, p: number): number {
  if (!isPlainLetter(text.charCodeAt(p))) return -1;
  let q = p + 1;
  while (q < text.length && isPlainLetter(text.charCodeAt(q))) q++;
  return q === text.length || endsLetterRun(text.charCodeAt(q)) ? q : -1;
}

/**
 * End of the piece at `p` when it is a prefix (a space, a tab, ASCII or CJK punctuation: the pattern's
 * `[^\r\n\p{L}\p{N}]?`) and a run of plain letters, ended as in `letterRunEnd`; -1 otherwise. The caller
 * merges such a piece from its bytes, exactly (a space merges with the first letter's bytes), unless it is
 * longer than `MAX_PIECE_BYTES`: it would then be counted in chunks, approximately, anyway, and counting its
 * prefix and its run apart (see `plainRunCount`) misses at most the one token a prefix can share.
 */
function prefixedRunEnd(text: string, p: number): number {
  const first = text.charCodeAt(p);
  const prefix = first < 0x80 ? ((ASCII_CLASS[first] as number) & (OTHER | SPACE)) !== 0 && ((ASCII_CLASS[first] as number) & NEWLINE) === 0 : isCjkPunctuation(first);
  return prefix ? letterRunEnd(text, p + 1) : -1;
}

/** Tokens of each plain letter (or run prefix) on its own, by UTF-16 unit; 0 until first needed. */
const letterTokenCounts = new Uint8Array(0x10000);

function letterTokens(code: number, encoding: Encoding): number {
  let tokens = letterTokenCounts[code] as number;
  if (tokens === 0) {
    // Byte-pair merging of three bytes, worked out: one token when all three are one (checked first, as
    // for any piece), else two when either pair is one, else three. No string is made.
    // (The callers pass ASCII, one token, or characters of three UTF-8 bytes.)
    const b0 = 0xe0 | (code >> 12);
    const b1 = 0x80 | ((code >> 6) & 0x3f);
    const b2 = 0x80 | (code & 0x3f);
    if (code < 0x80 || packedLookup(encoding.packed, b0 | (b1 << 8) | (b2 << 16), 3 << 16) >= 0) tokens = 1;
    else tokens = (encoding.pairs[(b0 << 8) | b1] as number) >= 0 || (encoding.pairs[(b1 << 8) | b2] as number) >= 0 ? 2 : 3;
    letterTokenCounts[code] = tokens;
  }
  return tokens;
}

/** True when two plain letters (three UTF-8 bytes each) together are one token. */
function isLetterPairToken(first: number, second: number, encoding: Encoding): boolean {
  // Bytes 0-3 in `low`, bytes 4-5 and the length in `high`, as the packed table keys them.
  const low = (0xe0 | (first >> 12)) | ((0x80 | ((first >> 6) & 0x3f)) << 8) | ((0x80 | (first & 0x3f)) << 16) | ((0xe0 | (second >> 12)) << 24);
  const high = (0x80 | ((second >> 6) & 0x3f)) | ((0x80 | (second & 0x3f)) << 8) | (6 << 16);
  return packedLookup(encoding.packed, low, high) >= 0;
}

/**
 * Tokens of a run of plain letters, by character: each letter's own count, and adjacent one-token letters
 * that together are one token (two, three or four of them, the longest first, left to right) count once.
 * Byte-pair merging over such a run is the slowest counting there is (every piece new, three bytes per
 * character, most lookups missing the cache: 5-10 MB/s); this reads a table per letter instead. It can
 * differ from o200k's merge where tokens overlap; the property tests in tokenizer.test.ts bound it.
 */
function plainRunCount(text: string, from: number, to: number, encoding: Encoding): number {
  let tokens = 0;
  let i = from;
  while (i < to) {
    const code = text.charCodeAt(i);
    const own = letterTokens(code, encoding);
    if (own === 1 && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (letterTokens(next, encoding) === 1 && isLetterPairToken(code, next, encoding)) {
        // Three or four letters can be one token too ("服务器"); such tokens start with a two-letter one.
        let width = 2;
        while (width < 4 && i + width < to && isToken(utf8Binary(text.slice(i, i + width + 1)), encoding)) width++;
        tokens++;
        i += width;
        continue;
      }
    }
    tokens += own;
    i++;
  }
  return tokens;
}

function countExact(text: string): number {
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
      else if (length === 2) tokens += (encoding.pairs[(text.charCodeAt(p) << 8) | text.charCodeAt(p + 1)] as number) >= 0 ? 1 : 2;
      else tokens += packedRank(encoding.packed, text, p, end) >= 0 ? 1 : scanPairCount(text, p, end, encoding);
    } else if (runEnd >= 0) {
      end = runEnd;
      tokens += plainRunCount(text, p, end, encoding);
    } else if (prefixedEnd >= 0) {
      end = prefixedEnd;
      const bytes = (text.charCodeAt(p) < 0x80 ? 1 : 3) + 3 * (end - p - 1);
      tokens += bytes > MAX_PIECE_BYTES ? letterTokens(text.charCodeAt(p), encoding) + plainRunCount(text, p + 1, end, encoding) : letterPieceCount(text.slice(p, end), encoding);
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

/** Estimates a long text from evenly spaced windows, scaled to its length. */
function countSampled(text: string): number {
  const windows = Math.min(64, Math.max(4, Math.ceil(text.length / CHARS_PER_SAMPLE)));
  const stride = (text.length - SAMPLE_CHARS) / (windows - 1);
  let sampledTokens = 0;
  let sampledChars = 0;
  for (let i = 0; i < windows; i++) {
    const start = Math.floor(i * stride);
    const window = text.slice(start, start + SAMPLE_CHARS);
    sampledTokens += countExact(window);
    sampledChars += window.length;
  }
  return Math.ceil((sampledTokens / sampledChars) * text.length * SAMPLED_MARGIN);
}

/** The default tokenizer: `o200k_base`, linearised and sampled as described above. */
export const tiktokenTokenizer: Tokenizer = {
  name: 'tiktoken-o200k',
  count(text: string): number {
    return text.length <= EXACT_LIMIT ? countExact(text) : countSampled(text);
  },
};

/** The classic `characters / 4` heuristic; useful in tests and as a cheap fallback. */
export const charsPerTokenTokenizer: Tokenizer = {
  name: 'chars/4',
  count(text: string): number {
    return Math.ceil(text.length / 4);
  },
};
