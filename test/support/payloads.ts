/**
 * Deterministic payloads of a given size and shape, for tool outputs and user
 * messages: log lines, prose, CJK, emoji with combining marks, JSON rows,
 * whitespace-free runs and base64. Same (kind, size, seed) → same text.
 */
import { logText } from './agent-harness.js';

export type PayloadKind =
  'log' | 'prose' | 'cjk' | 'emoji' | 'json-rows' | 'no-space' | 'base64' | 'empty-object' | 'empty-string';

export const TEXT_PAYLOAD_KINDS: readonly PayloadKind[] = ['log', 'prose', 'cjk', 'emoji', 'no-space', 'base64'];
export const PAYLOAD_KINDS: readonly PayloadKind[] = [
  ...TEXT_PAYLOAD_KINDS,
  'json-rows',
  'empty-object',
  'empty-string',
];

function lcg(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
}

/** Repeats `unit` pieces chosen by a seeded generator until `chars` UTF-16 units, never splitting a piece. */
function fromPieces(pieces: readonly string[], chars: number, seed: number, separator = ''): string {
  const next = lcg(seed);
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const piece = pieces[(next() >>> 16) % pieces.length] ?? '';
    if (length + piece.length + separator.length > chars && length > 0) break;
    out.push(piece);
    length += piece.length + separator.length;
  }
  return out.join(separator);
}

const PROSE = [
  'the',
  'order',
  'shipped',
  'from',
  'warehouse',
  'and',
  'was',
  'delayed',
  'by',
  'customs',
  'in',
  'Rotterdam',
  'because',
  'of',
  'a',
  'missing',
  'invoice.',
];
/** The pieces `cjk` and `emoji` payloads are made of (tests check every grapheme of a cut text against them). */
export const CJK_PIECES: readonly string[] = ['漢字', 'テキスト', '한국어', '中文', '数据', 'の', '注文', '倉庫'];
// Astral emoji (surrogate pairs), a ZWJ sequence, a flag and letters with combining marks.
export const EMOJI_PIECES: readonly string[] = [
  '😀',
  '🚀',
  '👩\u200d💻',
  '🇫🇷',
  'e\u0301',
  'n\u0303',
  'a\u030a\u0301',
  '𝔘',
  ' ',
];

/** Text of `kind` with about `chars` UTF-16 units (never more). */
export function payloadText(kind: PayloadKind, chars: number, seed = 1): string {
  if (chars <= 0) return '';
  switch (kind) {
    case 'log':
      return logText(chars, seed);
    case 'prose':
      return fromPieces(PROSE, chars, seed, ' ');
    case 'cjk':
      return fromPieces(CJK_PIECES, chars, seed);
    case 'emoji':
      return fromPieces(EMOJI_PIECES, chars, seed);
    case 'no-space': {
      // Hex digits without a single space: the worst case for a BPE tokenizer.
      const next = lcg(seed);
      let text = '';
      while (text.length < chars) text += next().toString(16).padStart(8, '0');
      return text.slice(0, chars);
    }
    case 'base64': {
      const bytes = Buffer.alloc(Math.ceil((chars * 3) / 4));
      const next = lcg(seed);
      for (let i = 0; i < bytes.length; i++) bytes[i] = next() >>> 24; // high bits: an LCG's low bits repeat quickly
      return bytes.toString('base64').slice(0, chars);
    }
    case 'json-rows':
    case 'empty-object':
    case 'empty-string':
      return logText(chars, seed);
  }
}

/** A tool result of `kind` whose JSON is about `chars` characters. */
export function payloadResult(kind: PayloadKind, chars: number, seed = 1): unknown {
  switch (kind) {
    case 'empty-object':
      return {};
    case 'empty-string':
      return '';
    case 'json-rows': {
      const rows: Array<Record<string, unknown>> = [];
      let length = 0;
      for (let i = 0; length < chars; i++) {
        const row = { id: seed * 100_000 + i, status: i % 3 === 0 ? 'failed' : 'ok', note: logText(40, seed + i) };
        rows.push(row);
        length += JSON.stringify(row).length + 1;
      }
      return { rows };
    }
    default:
      return { output: payloadText(kind, chars, seed) };
  }
}
