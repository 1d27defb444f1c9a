/**
 * Token cost of inline media, estimated the way Gemini bills it rather than as
 * bytes/4 (a 1 MB PNG is ~258 tokens to Gemini, not 350,000).
 *
 * - images: 258 tokens when both sides are at most 384 px, otherwise 258 per
 *   768x768 tile; when the size cannot be read from the header, 1,120 tokens
 *   (Gemini 3's default per-image budget), so an unknown image is never cheap;
 * - PDF: 258 tokens per page (pages counted in the file, else 1 per 3 KB);
 * - audio: 32 tokens per second, assuming a low 32 kbit/s bitrate so the
 *   duration is over- rather than under-estimated;
 * - video: 263 tokens per second, assuming 1 Mbit/s;
 * - text/* and JSON: decoded and counted as text;
 * - anything else: base64 characters / 4.
 */
import { Buffer } from 'node:buffer';
import type { Tokenizer } from './tokenizer.js';

const IMAGE_TILE_TOKENS = 258;
const UNKNOWN_IMAGE_TOKENS = 1120;
const PDF_PAGE_TOKENS = 258;
const AUDIO_BYTES_PER_SECOND = 4_000;
const AUDIO_TOKENS_PER_SECOND = 32;
const VIDEO_BYTES_PER_SECOND = 125_000;
const VIDEO_TOKENS_PER_SECOND = 263;
const PDF_BYTES_PER_PAGE_FALLBACK = 3_000;
/** PDFs larger than this are not decoded to count pages (bounded work). */
const PDF_SCAN_LIMIT = 16 * 1024 * 1024;

/** Width and height read from a PNG, GIF, JPEG or WebP header, if present. */
export function readImageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const at = (i: number): number => bytes[i] ?? 0;
  // PNG: IHDR width/height are big-endian at 16..23.
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47 && bytes.length >= 24) {
    return {
      width: ((at(16) << 24) | (at(17) << 16) | (at(18) << 8) | at(19)) >>> 0,
      height: ((at(20) << 24) | (at(21) << 16) | (at(22) << 8) | at(23)) >>> 0,
    };
  }
  // GIF: little-endian at 6..9.
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && bytes.length >= 10) {
    return { width: at(6) | (at(7) << 8), height: at(8) | (at(9) << 8) };
  }
  // JPEG: walk the markers to the first start-of-frame.
  if (at(0) === 0xff && at(1) === 0xd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (at(i) !== 0xff) return undefined;
      const marker = at(i + 1);
      const length = (at(i + 2) << 8) | at(i + 3);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: (at(i + 5) << 8) | at(i + 6), width: (at(i + 7) << 8) | at(i + 8) };
      }
      i += 2 + length;
    }
    return undefined;
  }
  // WebP (VP8X extended header): 24-bit little-endian canvas size minus one.
  if (at(8) === 0x57 && at(9) === 0x45 && at(10) === 0x42 && at(11) === 0x50 && at(15) === 0x58) {
    return {
      width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)),
      height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)),
    };
  }
  return undefined;
}

/** Gemini's per-image cost for an image of the given size. */
export function imageTokens(size: { width: number; height: number } | undefined): number {
  if (!size || size.width <= 0 || size.height <= 0) return UNKNOWN_IMAGE_TOKENS;
  if (size.width <= 384 && size.height <= 384) return IMAGE_TILE_TOKENS;
  return Math.ceil(size.width / 768) * Math.ceil(size.height / 768) * IMAGE_TILE_TOKENS;
}

function decodedByteLength(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

function countPdfPages(base64: string): number | undefined {
  if (base64.length > PDF_SCAN_LIMIT) return undefined;
  const text = Buffer.from(base64, 'base64').toString('latin1');
  const matches = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g);
  return matches && matches.length > 0 ? matches.length : undefined;
}

/**
 * Tokens for one inline blob. `data` is base64, as in `@google/genai`'s `Blob`.
 * Never throws: malformed data falls back to a size-based estimate.
 */
export function inlineDataTokens(mimeType: string | undefined, data: string | undefined, tokenizer: Tokenizer): number {
  const base64 = data ?? '';
  const mime = (mimeType ?? '').toLowerCase();
  try {
    if (mime.startsWith('image/')) {
      const header = Buffer.from(base64.slice(0, 96 * 1024), 'base64');
      return imageTokens(readImageSize(header));
    }
    if (mime === 'application/pdf') {
      const pages =
        countPdfPages(base64) ?? Math.max(1, Math.ceil(decodedByteLength(base64) / PDF_BYTES_PER_PAGE_FALLBACK));
      return pages * PDF_PAGE_TOKENS;
    }
    if (mime.startsWith('audio/')) {
      return Math.max(
        AUDIO_TOKENS_PER_SECOND,
        Math.ceil((decodedByteLength(base64) / AUDIO_BYTES_PER_SECOND) * AUDIO_TOKENS_PER_SECOND),
      );
    }
    if (mime.startsWith('video/')) {
      return Math.max(
        VIDEO_TOKENS_PER_SECOND,
        Math.ceil((decodedByteLength(base64) / VIDEO_BYTES_PER_SECOND) * VIDEO_TOKENS_PER_SECOND),
      );
    }
    if (mime.startsWith('text/') || mime === 'application/json') {
      return tokenizer.count(Buffer.from(base64, 'base64').toString('utf8'));
    }
  } catch {
    // Fall through to the size-based estimate.
  }
  return Math.ceil(base64.length / 4);
}

/** Tokens for a `fileData` reference (a URI the provider resolves); its size is unknown. */
export function fileDataTokens(mimeType: string | undefined): number {
  const mime = (mimeType ?? '').toLowerCase();
  if (mime.startsWith('image/')) return UNKNOWN_IMAGE_TOKENS;
  // A referenced document, audio or video can be large; assume a few pages or seconds.
  return 8 * PDF_PAGE_TOKENS;
}
