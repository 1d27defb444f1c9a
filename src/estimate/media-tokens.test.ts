import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { gifBytes, jpegBytes, pdfText, pngBytes, toBase64, webpBytes, zeroBytesBase64 } from '../testing/index.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { fileDataTokens, imageTokens, inlineDataTokens, readImageSize } from './media-tokens.js';

describe('readImageSize', () => {
  describe('bytes that are not a readable image', () => {
    it('should return undefined for no bytes', () => {
      expect(readImageSize(new Uint8Array())).toBeUndefined();
    });

    it('should return undefined for bytes of no known format', () => {
      expect(readImageSize(Uint8Array.from(Buffer.from('just some text, not an image at all')))).toBeUndefined();
    });

    it('should return undefined for a PNG cut before its IHDR sizes', () => {
      expect(readImageSize(pngBytes(640, 480).slice(0, 20))).toBeUndefined();
    });

    it('should return undefined for a JPEG whose segments are garbage', () => {
      expect(
        readImageSize(Uint8Array.from([0xff, 0xd8, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99])),
      ).toBeUndefined();
    });
  });

  describe('headers', () => {
    it('should read a PNG IHDR', () => {
      expect(readImageSize(pngBytes(1024, 768))).toEqual({ width: 1024, height: 768 });
    });

    it('should read a PNG wider than 2^31 pixels as an unsigned number', () => {
      expect(readImageSize(pngBytes(0x80000001, 1))).toEqual({ width: 2_147_483_649, height: 1 });
    });

    it('should read a GIF logical screen', () => {
      expect(readImageSize(gifBytes(300, 200))).toEqual({ width: 300, height: 200 });
    });

    it('should read a JPEG frame header after an APP0 and a Huffman table', () => {
      expect(readImageSize(jpegBytes(1920, 1080))).toEqual({ width: 1920, height: 1080 });
    });

    it('should read a WebP VP8X canvas', () => {
      expect(readImageSize(webpBytes(800, 600))).toEqual({ width: 800, height: 600 });
    });
  });
});

describe('imageTokens', () => {
  describe('unknown sizes', () => {
    it('should price an image of unknown size at 1,120 tokens, never cheaply', () => {
      expect(imageTokens(undefined)).toBe(1_120);
    });

    it('should price a zero-sized image like an unknown one', () => {
      expect(imageTokens({ width: 0, height: 100 })).toBe(1_120);
    });
  });

  describe('known sizes', () => {
    it('should price an image up to 384x384 as one tile of 258 tokens', () => {
      expect(imageTokens({ width: 384, height: 384 })).toBe(258);
    });

    it('should price a larger image per 768x768 tile', () => {
      // 769x768: ceil(769 / 768) × ceil(768 / 768) = 2 × 1 = 2 tiles × 258 = 516
      expect(imageTokens({ width: 769, height: 768 })).toBe(516);
      // 1920x1080: ceil(2.5) × ceil(1.40625) = 3 × 2 = 6 tiles × 258 = 1,548
      expect(imageTokens({ width: 1920, height: 1080 })).toBe(1_548);
    });
  });

  describe('laws', () => {
    it('should never price a readable image below one tile', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 20_000 }), (width, height) => {
          expect(imageTokens({ width, height })).toBeGreaterThanOrEqual(258);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never price a larger image below a smaller one', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 10_000 }),
          fc.integer({ min: 1, max: 10_000 }),
          fc.nat(5_000),
          fc.nat(5_000),
          (width, height, extraWidth, extraHeight) => {
            expect(imageTokens({ width: width + extraWidth, height: height + extraHeight })).toBeGreaterThanOrEqual(
              imageTokens({ width, height }),
            );
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('inlineDataTokens', () => {
  describe('missing or malformed data', () => {
    it('should count no data as 0 tokens', () => {
      expect(inlineDataTokens(undefined, undefined, characterTokenizer)).toBe(0);
    });

    it('should price an image whose header cannot be read at the unknown-image cost', () => {
      expect(inlineDataTokens('image/png', toBase64('not a png'), characterTokenizer)).toBe(1_120);
    });

    it('should price base64 of an unknown type at characters / 4', () => {
      // 400 base64 characters / 4 = 100
      expect(inlineDataTokens('application/octet-stream', 'A'.repeat(400), characterTokenizer)).toBe(100);
    });
  });

  describe('images (billed per tile, not per byte)', () => {
    it('should price a 1 MB PNG by its size in pixels', () => {
      const png = Buffer.concat([Buffer.from(pngBytes(300, 300)), Buffer.alloc(1_000_000)]);
      // 300x300 fits one tile: 258 tokens, where bytes / 4 would have said about 333,000.
      expect(inlineDataTokens('image/png', png.toString('base64'), characterTokenizer)).toBe(258);
    });

    it('should read the MIME type case-insensitively', () => {
      // 1920x1080 JPEG: 6 tiles × 258 = 1,548
      expect(inlineDataTokens('IMAGE/JPEG', toBase64(jpegBytes(1920, 1080)), characterTokenizer)).toBe(1_548);
    });
  });

  describe('PDF (billed per page)', () => {
    it('should count page objects, not the page tree', () => {
      // 3 × '/Type /Page' (the '/Type /Pages' root does not count): 3 × 258 = 774
      expect(inlineDataTokens('application/pdf', toBase64(pdfText(3)), characterTokenizer)).toBe(774);
    });

    it('should assume one page per 3 KB when no page object can be found', () => {
      // 9,000 bytes (12,000 base64 characters × 3/4) / 3,000 = 3 pages × 258 = 774
      expect(inlineDataTokens('application/pdf', zeroBytesBase64(9_000), characterTokenizer)).toBe(774);
    });

    it('should price an empty PDF as one page', () => {
      expect(inlineDataTokens('application/pdf', '', characterTokenizer)).toBe(258);
    });
  });

  describe('audio and video (billed per second)', () => {
    it('should price audio at 32 tokens per second of 4,000 bytes', () => {
      // 48,000 bytes / 4,000 = 12 s × 32 = 384
      expect(inlineDataTokens('audio/mpeg', zeroBytesBase64(48_000), characterTokenizer)).toBe(384);
    });

    it('should price a tiny audio clip at one second at least', () => {
      expect(inlineDataTokens('audio/wav', zeroBytesBase64(30), characterTokenizer)).toBe(32);
    });

    it('should price video at 263 tokens per second of 125,000 bytes', () => {
      // 1,500,000 bytes / 125,000 = 12 s × 263 = 3,156
      expect(inlineDataTokens('video/mp4', zeroBytesBase64(1_500_000), characterTokenizer)).toBe(3_156);
    });
  });

  describe('text', () => {
    it('should decode text/* and JSON and count the text', () => {
      // 'hello, world' is 12 characters with the one-token-per-character tokenizer.
      expect(inlineDataTokens('text/plain', toBase64('hello, world'), characterTokenizer)).toBe(12);
      // '{"a":[1,2]}' is 11 characters.
      expect(inlineDataTokens('application/json', toBase64('{"a":[1,2]}'), characterTokenizer)).toBe(11);
    });
  });
});

describe('fileDataTokens', () => {
  describe('references of unknown size', () => {
    it('should price a referenced image as an image of unknown size', () => {
      expect(fileDataTokens('image/webp')).toBe(1_120);
    });

    it('should price any other reference as 8 pages', () => {
      // 8 × 258 = 2,064
      expect(fileDataTokens('application/pdf')).toBe(2_064);
      expect(fileDataTokens(undefined)).toBe(2_064);
    });
  });
});
