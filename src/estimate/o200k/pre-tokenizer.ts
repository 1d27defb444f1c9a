/**
 * Where o200k's pre-tokenizer pattern ends a piece, worked out without the regular expression for ASCII
 * and for runs of CJK, Hangul and kana letters (the caller runs the pattern itself elsewhere).
 */

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
export function asciiPieceEnd(text: string, p: number): number {
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
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0x3041 && code <= 0x3096) ||
    (code >= 0x30a1 && code <= 0x30fa)
  );
}

/** True for a code unit that ends a letter run: ASCII other than letters and the apostrophe, and common CJK punctuation. */
function endsLetterRun(code: number): boolean {
  if (code < 0x80) return (ASCII_CLASS[code] as number) & (UPPER | LOWER) ? false : code !== 0x27;
  return isCjkPunctuation(code);
}

/** CJK punctuation that ends a letter run. */
function isCjkPunctuation(code: number): boolean {
  switch (code) {
    case 0x3001:
    case 0x3002:
    case 0x300c:
    case 0x300d:
    case 0x300e:
    case 0x300f:
    case 0x3010:
    case 0x3011:
    case 0xff01:
    case 0xff08:
    case 0xff09:
    case 0xff0c:
    case 0xff1a:
    case 0xff1b:
    case 0xff1f:
    case 0x2018:
    case 0x2019:
    case 0x201c:
    case 0x201d:
    case 0x2026:
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
export function letterRunEnd(text: string, p: number): number {
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
export function prefixedRunEnd(text: string, p: number): number {
  const first = text.charCodeAt(p);
  const prefix =
    first < 0x80
      ? ((ASCII_CLASS[first] as number) & (OTHER | SPACE)) !== 0 && ((ASCII_CLASS[first] as number) & NEWLINE) === 0
      : isCjkPunctuation(first);
  return prefix ? letterRunEnd(text, p + 1) : -1;
}
