/**
 * Synthetic media that real parsers accept, built byte by byte: images whose headers state
 * their size (PNG, GIF, JPEG, WebP) and PDFs with a real page tree, so size reading and page
 * counting are checked against real headers rather than fixtures. `imageBase64` and
 * `pdfBase64` pad to a requested size with deterministic filler.
 */
import { Buffer } from 'node:buffer';
import { crc32 } from 'node:zlib';
import { SeededRandom } from './seeded-random.js';

function filler(bytes: number, seed: number): Buffer {
  const random = new SeededRandom(seed);
  const out = Buffer.alloc(Math.max(0, bytes));
  for (let i = 0; i < out.length; i++) out[i] = random.next() & 0xff;
  return out;
}

/** Base64 of a PNG of `width` x `height` pixels, `base64Chars` characters long (rounded to 4). */
export function imageBase64(width: number, height: number, base64Chars: number, seed: number): string {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8); // IHDR length
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.writeUInt8(8, 24); // bit depth
  header.writeUInt8(2, 25); // colour type: RGB
  const bytes = Math.max(header.length, Math.floor((base64Chars * 3) / 4));
  return Buffer.concat([header, filler(bytes - header.length, seed)]).toString('base64');
}

/** The catalog, the page tree (`/Type /Pages`) and `pages` page objects (`/Type /Page`) of a PDF. */
function pdfObjects(pages: number): string[] {
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(' ');
  return [
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    `2 0 obj << /Type /Pages /Kids [${kids}] /Count ${pages} >> endobj`,
    ...Array.from(
      { length: pages },
      (_, i) => `${3 + i} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj`,
    ),
  ];
}

/** Base64 of a PDF with `pages` pages, about `base64Chars` characters long. */
export function pdfBase64(pages: number, base64Chars: number, seed: number): string {
  const head = Buffer.from(`%PDF-1.4\n${pdfObjects(pages).join('\n')}\n`, 'latin1');
  const total = Math.max(head.length + 16, Math.floor((base64Chars * 3) / 4));
  // Filler as a comment-free stream of printable bytes, then the trailer.
  const trailer = Buffer.from('\n%%EOF\n', 'latin1');
  const body = Buffer.from(
    Array.from(filler(Math.max(0, total - head.length - trailer.length), seed), (byte) => 0x41 + (byte % 26)),
  );
  return Buffer.concat([head, body, trailer]).toString('base64');
}

/** A minimal PDF with a page tree and `pages` pages, as text. */
export function pdfText(pages: number): string {
  return `%PDF-1.4\n${pdfObjects(pages).join('\n')}\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
}

function uint32BE(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function uint16BE(value: number): number[] {
  return [(value >>> 8) & 0xff, value & 0xff];
}

function uint16LE(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff];
}

function uint24LE(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

function pngChunk(type: string, data: number[]): number[] {
  const typeAndData = [...ascii(type), ...data];
  return [...uint32BE(data.length), ...typeAndData, ...uint32BE(crc32(Uint8Array.from(typeAndData)))];
}

/** PNG signature, IHDR (8-bit RGB) and IEND, with correct CRCs. */
export function pngBytes(width: number, height: number): Uint8Array {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const ihdr = [...uint32BE(width), ...uint32BE(height), 8, 2, 0, 0, 0];
  return Uint8Array.from([...signature, ...pngChunk('IHDR', ihdr), ...pngChunk('IEND', [])]);
}

/** GIF89a logical screen descriptor, no colour table, trailer. */
export function gifBytes(width: number, height: number): Uint8Array {
  return Uint8Array.from([...ascii('GIF89a'), ...uint16LE(width), ...uint16LE(height), 0x00, 0x00, 0x00, 0x3b]);
}

/**
 * JPEG: SOI, a JFIF APP0 segment, a DHT segment (marker 0xC4, which is not a
 * frame header and must be skipped), a baseline SOF0 with three components, EOI.
 */
export function jpegBytes(width: number, height: number): Uint8Array {
  const app0 = [
    0xff,
    0xe0,
    ...uint16BE(16),
    ...ascii('JFIF'),
    0x00,
    0x01,
    0x01,
    0x00,
    ...uint16BE(1),
    ...uint16BE(1),
    0x00,
    0x00,
  ];
  const dhtTable = [0x00, ...new Array<number>(16).fill(0)];
  const dht = [0xff, 0xc4, ...uint16BE(2 + dhtTable.length), ...dhtTable];
  const sof0 = [
    0xff,
    0xc0,
    ...uint16BE(17),
    8,
    ...uint16BE(height),
    ...uint16BE(width),
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  return Uint8Array.from([0xff, 0xd8, ...app0, ...dht, ...sof0, 0xff, 0xd9]);
}

/** WebP with a VP8X (extended) header: canvas size stored minus one, 24-bit little-endian. */
export function webpBytes(width: number, height: number): Uint8Array {
  const vp8x = [
    ...ascii('VP8X'),
    ...[10, 0, 0, 0],
    0x00,
    0x00,
    0x00,
    0x00,
    ...uint24LE(width - 1),
    ...uint24LE(height - 1),
  ];
  return Uint8Array.from([...ascii('RIFF'), ...[4 + vp8x.length, 0, 0, 0], ...ascii('WEBP'), ...vp8x]);
}

export function toBase64(bytes: Uint8Array | string): string {
  return typeof bytes === 'string'
    ? Buffer.from(bytes, 'latin1').toString('base64')
    : Buffer.from(bytes).toString('base64');
}

/** Base64 of `byteCount` zero bytes (pick a multiple of 3 so the decoded size is exact). */
export function zeroBytesBase64(byteCount: number): string {
  return Buffer.alloc(byteCount).toString('base64');
}
