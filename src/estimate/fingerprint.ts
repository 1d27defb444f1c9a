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

/** Decimal text of small integers (lengths), so hashing a length allocates nothing. */
const SMALL_NUMBERS: readonly string[] = Array.from({ length: 1024 }, (_, i) => String(i));

/** 52-bit FNV-1a style hash state, kept as two 26-bit halves to stay exact in doubles. */
class Hasher {
  private low = 0x2c9277b;
  private high = 0x1d8e4e2;
  /** Nodes the walk may still visit (unbounded for `fingerprint`). */
  remaining: number;

  constructor(maxNodes: number = Number.POSITIVE_INFINITY) {
    this.remaining = maxNodes;
  }

  addString(text: string): void {
    const length = text.length;
    this.addLength(length);
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
    const text = String(value);
    this.addChars(text, 0, text.length);
    this.mix(0x3b);
  }

  /** `addNumber` for a length (a non-negative integer), without allocating below 1,024. */
  addLength(length: number): void {
    const text = length < 1024 ? (SMALL_NUMBERS[length] as string) : String(length);
    this.addChars(text, 0, text.length);
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
    let low = this.low;
    let high = this.high;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      low = (Math.imul(low ^ code, 0x01000193) >>> 0) & 0x3ffffff;
      high = (Math.imul(high ^ (code + 0x9e), 0x0100019d) >>> 0) & 0x3ffffff;
    }
    this.low = low;
    this.high = high;
  }

  private mix(code: number): void {
    // Two independent multiplicative hashes; Math.imul keeps them in 32 bits.
    this.low = (Math.imul(this.low ^ code, 0x01000193) >>> 0) & 0x3ffffff;
    this.high = (Math.imul(this.high ^ (code + 0x9e), 0x0100019d) >>> 0) & 0x3ffffff;
  }
}

function addValue(hasher: Hasher, value: unknown, depth: number): void {
  if (--hasher.remaining < 0) return;
  if (depth > 64) {
    hasher.addTag('deep');
    return;
  }
  if (value === null || value === undefined) {
    hasher.addTag(value === null ? 'null' : 'undefined');
    return;
  }
  const kind = typeof value;
  if (kind === 'string') {
    hasher.addTag('s');
    hasher.addString(value as string);
  } else if (kind === 'number' || kind === 'boolean' || kind === 'bigint') {
    hasher.addTag(kind);
    hasher.addString(String(value));
  } else if (Array.isArray(value)) {
    hasher.addTag('[');
    hasher.addLength(value.length);
    for (let i = 0; i < value.length; i++) addValue(hasher, value[i], depth + 1);
    hasher.addTag(']');
  } else if (kind === 'object') {
    hasher.addTag('{');
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const child = record[key];
      if (child === undefined) continue;
      hasher.addTag(key);
      addValue(hasher, child, depth + 1);
    }
    hasher.addTag('}');
  } else {
    hasher.addTag(kind);
  }
}

/** Fingerprint of any JSON-like value (a `Content`, a part, a tool declaration). */
export function fingerprint(value: unknown): string {
  const hasher = new Hasher();
  addValue(hasher, value, 0);
  return hasher.digest();
}

/** Nodes a probe visits at most. */
export const PROBE_NODES = 256;

/**
 * A cheaper fingerprint for re-identifying a value already fingerprinted: the
 * same walk, stopped after `maxNodes` nodes, so its cost is bounded even for a
 * tool result of 100,000 nodes. Equal to `fingerprint` for a value of at most
 * `maxNodes` nodes; a change past the first `maxNodes` nodes (in walk order)
 * goes unseen, so it may only guard a cache, never key anything persisted.
 */
export function probeFingerprint(value: unknown, maxNodes: number = PROBE_NODES): string {
  const hasher = new Hasher(maxNodes);
  addValue(hasher, value, 0);
  return hasher.digest();
}
