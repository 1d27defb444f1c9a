/**
 * Synthetic media that real parsers accept: a PNG whose IHDR states its size
 * (so an estimator can read width and height from the header) and a PDF with
 * a real page tree (so pages can be counted). The bytes after the headers are
 * deterministic filler of the requested size.
 */
import { Buffer } from 'node:buffer';
import { Lcg } from './lcg.js';

function filler(bytes: number, seed: number): Buffer {
  const random = new Lcg(seed);
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

/** Base64 of a PDF with `pages` pages, about `base64Chars` characters long. */
export function pdfBase64(pages: number, base64Chars: number, seed: number): string {
  const objects: string[] = ['1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj'];
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(' ');
  objects.push(`2 0 obj << /Type /Pages /Kids [${kids}] /Count ${pages} >> endobj`);
  for (let i = 0; i < pages; i++)
    objects.push(`${3 + i} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj`);
  const head = Buffer.from(`%PDF-1.4\n${objects.join('\n')}\n`, 'latin1');
  const total = Math.max(head.length + 16, Math.floor((base64Chars * 3) / 4));
  // Filler as a comment-free stream of printable bytes, then the trailer.
  const trailer = Buffer.from('\n%%EOF\n', 'latin1');
  const body = Buffer.from(
    Array.from(filler(Math.max(0, total - head.length - trailer.length), seed), (byte) => 0x41 + (byte % 26)),
  );
  return Buffer.concat([head, body, trailer]).toString('base64');
}
