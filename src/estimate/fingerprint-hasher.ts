/**
 * The hash state a fingerprint walk feeds (estimate/fingerprint.ts): a 52-bit FNV-1a style hash
 * in two 26-bit halves, with texts, lengths, numbers and node kinds mixed in.
 */
import { createHash } from 'node:crypto';

const SAMPLE = 48;
/** JSON texts longer than this are hashed natively (below it the call costs more than the loop). */
const NATIVE_HASH_CHARS = 4_096;

/** Decimal text of small integers (lengths), so hashing a length allocates nothing. */
const SMALL_NUMBERS: readonly string[] = Array.from({ length: 1024 }, (_, i) => String(i));

/**
 * What a node is, mixed in as one code above the UTF-16 range (so no text can imitate it): a code is
 * one multiply where a tag's name was a loop over its characters, and the walk of a 90,000-key result
 * mixes several per key.
 */
export const Tag = {
  String: 0x10001,
  Integer: 0x10002,
  Negative: 0x10003,
  Number: 0x10004,
  True: 0x10005,
  False: 0x10006,
  BigInt: 0x10007,
  Null: 0x10008,
  Undefined: 0x10009,
  Deep: 0x1000a,
  ArrayOpen: 0x1000b,
  ArrayClose: 0x1000c,
  ObjectOpen: 0x1000d,
  ObjectClose: 0x1000e,
  Key: 0x1000f,
  Other: 0x10010,
  /** A safe integer of 2^52 or more: its high part has a 27th bit, which one code of 26 bits cannot carry. */
  IntegerWide: 0x10011,
  NegativeWide: 0x10012,
  /** An object or array met again inside itself: a cycle, hashed as its depth above, never walked again. */
  Cycle: 0x10013,
} as const;

/** 2^26: a hash half, and the split of a safe integer into two halves. */
const HALF = 0x4000000;

export const SEED_LOW = 0x2c9277b;
export const SEED_HIGH = 0x1d8e4e2;

/** 52-bit FNV-1a style hash state, kept as two 26-bit halves to stay exact in doubles. */
export class Hasher {
  /** The two halves: read and set by `addObject`, which hashes each key-value pair from the seed on its own. */
  low = SEED_LOW;
  high = SEED_HIGH;
  /** Nodes the walk may still visit. */
  remaining: number;
  /** The objects and arrays being walked, outermost first: one met again is a cycle (fingerprint.ts). */
  readonly path: object[] = [];
  /**
   * The digest of each long text hashed so far in this walk: a text met again (one value shared by many
   * objects) is hashed once (the eighteenth outside trial: a 100 KB body referred to from a cycle was hashed
   * again on each of a million visits, and the process stalled for 26 s on every call).
   */
  private digests: { utf8?: Map<string, string>; utf16le?: Map<string, string> } | undefined;

  constructor(
    maxNodes: number = Number.POSITIVE_INFINITY,
    /** Hash every character of every string (fingerprints), not samples of long ones (probes). */
    readonly wholeStrings = false,
  ) {
    this.remaining = maxNodes;
  }

  addString(text: string): void {
    if (this.wholeStrings) {
      this.addWhole(text, 'utf16le');
      return;
    }
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

  /** A length (a non-negative integer) through its decimal text, without allocating below 1,024. */
  addLength(length: number): void {
    const text = length < 1024 ? (SMALL_NUMBERS[length] as string) : String(length);
    this.addChars(text, 0, text.length);
    this.mix(0x3b);
  }

  /**
   * Every character of a text (a string of a fingerprint, the JSON text of a tool argument or
   * result): two polls of one tool can return results of the same length that differ in one value,
   * and sampling would make them one content (to the token memo and to a watermark's anchor). A long
   * text goes through Node's native SHA-1 (about 1 ms per MB; this loop in JavaScript took 4-20 ms per MB).
   * `utf16le` for a string that may hold lone surrogates (UTF-8 would make them all U+FFFD, one
   * character); a JSON text is well-formed (JSON.stringify escapes them) and hashes faster as UTF-8.
   */
  addWhole(text: string, encoding: 'utf8' | 'utf16le' = 'utf8'): void {
    this.addLength(text.length);
    if (text.length <= NATIVE_HASH_CHARS) this.addChars(text, 0, text.length);
    else {
      // Made on the first long text only: a walk is made per content, most of them without one.
      this.digests ??= {};
      const known = (this.digests[encoding] ??= new Map<string, string>());
      let digest = known.get(text);
      if (digest === undefined) {
        digest = createHash('sha1').update(text, encoding).digest('base64');
        known.set(text, digest);
      }
      this.addChars(digest, 0, digest.length);
    }
  }

  addTag(tag: string): void {
    this.addChars(tag, 0, tag.length);
    this.mix(0x1f);
  }

  /** A number: a safe integer as its two 26-bit halves (no text made of it), any other through its text. */
  addNumberValue(value: number): void {
    if (!Number.isSafeInteger(value)) {
      this.mix(Tag.Number);
      this.addString(String(value));
      return;
    }
    const magnitude = Math.abs(value);
    const high = Math.floor(magnitude / HALF);
    // A code keeps 26 bits (mix masks the rest off): the high part's 27th bit goes into the tag, or
    // n and n + 2^52 would be one fingerprint. Tags appended, so no other value's fingerprint changed.
    const wide = high >= HALF;
    if (value < 0) this.mix(wide ? Tag.NegativeWide : Tag.Negative);
    else this.mix(wide ? Tag.IntegerWide : Tag.Integer);
    this.mix(magnitude % HALF);
    this.mix(wide ? high - HALF : high);
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

  /** One code (a tag, or a value of at most 26 bits: each gives its own state, the multiply being odd). */
  mix(code: number): void {
    // Two independent multiplicative hashes; Math.imul keeps them in 32 bits.
    this.low = (Math.imul(this.low ^ code, 0x01000193) >>> 0) & 0x3ffffff;
    this.high = (Math.imul(this.high ^ (code + 0x9e), 0x0100019d) >>> 0) & 0x3ffffff;
  }
}
