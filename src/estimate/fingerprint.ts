/**
 * Cheap structural fingerprints of contents.
 *
 * ADK deep-clones every content on every step, so object identity cannot key a
 * cache. A fingerprint walks the structure (keys, kinds, lengths) and hashes
 * strings by sampling their head, middle and tail, so its cost grows with the
 * number of nodes, not the number of bytes: a 1 MB tool result costs the same
 * as a 1 KB one. Two strings that collide must share their length and every
 * sampled window, so a collision can only mis-key a near-identical string.
 */

const SAMPLE = 48;

/** 52-bit FNV-1a style hash state, kept as two 26-bit halves to stay exact in doubles. */
class Hasher {
  private low = 0x2c9277b;
  private high = 0x1d8e4e2;

  addString(text: string): void {
    const length = text.length;
    this.addNumber(length);
    if (length <= SAMPLE * 4) {
      this.addChars(text, 0, length);
      return;
    }
    this.addChars(text, 0, SAMPLE);
    const quarter = Math.floor(length / 4);
    this.addChars(text, quarter, quarter + SAMPLE);
    const middle = Math.floor(length / 2);
    this.addChars(text, middle, middle + SAMPLE);
    this.addChars(text, length - SAMPLE, length);
  }

  addNumber(value: number): void {
    this.addChars(String(value), 0, String(value).length);
    this.mix(0x3b);
  }

  addTag(tag: string): void {
    this.addChars(tag, 0, tag.length);
    this.mix(0x1f);
  }

  digest(): string {
    return this.high.toString(36) + '.' + this.low.toString(36);
  }

  private addChars(text: string, start: number, end: number): void {
    for (let i = start; i < end; i++) this.mix(text.charCodeAt(i));
  }

  private mix(code: number): void {
    // Two independent multiplicative hashes; Math.imul keeps them in 32 bits.
    this.low = (Math.imul(this.low ^ code, 0x01000193) >>> 0) & 0x3ffffff;
    this.high = (Math.imul(this.high ^ (code + 0x9e), 0x0100019d) >>> 0) & 0x3ffffff;
  }
}

function addValue(hasher: Hasher, value: unknown, depth: number): void {
  if (depth > 64) {
    hasher.addTag('deep');
    return;
  }
  if (value === null || value === undefined) {
    hasher.addTag(String(value));
  } else if (typeof value === 'string') {
    hasher.addTag('s');
    hasher.addString(value);
  } else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    hasher.addTag(typeof value);
    hasher.addString(String(value));
  } else if (Array.isArray(value)) {
    hasher.addTag('[');
    hasher.addNumber(value.length);
    for (const item of value) addValue(hasher, item, depth + 1);
    hasher.addTag(']');
  } else if (typeof value === 'object') {
    hasher.addTag('{');
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (child === undefined) continue;
      hasher.addTag(key);
      addValue(hasher, child, depth + 1);
    }
    hasher.addTag('}');
  } else {
    hasher.addTag(typeof value);
  }
}

/** Fingerprint of any JSON-like value (a `Content`, a part, a tool declaration). */
export function fingerprint(value: unknown): string {
  const hasher = new Hasher();
  addValue(hasher, value, 0);
  return hasher.digest();
}
