/**
 * Per-content fingerprints and token estimates, computed once.
 *
 * The before-model callback runs on every model call, and ADK hands it a fresh
 * deep copy of the whole history each time. Re-tokenizing that history would
 * make every step O(history). This cache keeps, per session and agent, the
 * fingerprints and estimates of the contents seen at the previous call; when
 * the new request still starts with them (checked at the first and last known
 * positions by probes, walks of at most 256 nodes that skip tool data over
 * 16 KB, so the check costs the same however large those contents are) only
 * the appended contents are measured. A global fingerprint → tokens memo
 * makes even a full re-measure cheap.
 *
 * Correctness never depends on this cache: a miss only costs time. It is
 * bounded (least recently used sessions are dropped first).
 */
import type { Content } from '@google/genai';
import { contentFramingTokens, estimateContentTokens } from './estimate-content.js';
import { fingerprint, probeFingerprint } from './fingerprint.js';
import type { JsonTexts } from './json-text.js';
import type { Tokenizer } from './tokenizer.js';

interface ContentMeasures {
  readonly fingerprints: readonly string[];
  readonly tokens: readonly number[];
  /** The estimator's framing of each content (part of its tokens), so a call sums it instead of walking parts. */
  readonly framing: readonly number[];
}

interface SessionEntry {
  fingerprints: string[];
  tokens: number[];
  framing: number[];
  /** Probes (bounded fingerprints) of the first and last contents measured, to recognise the history next time. */
  firstProbe: string;
  lastProbe: string;
  /** Whether the first / last content's tool data is too large to look into on every call (its probe skips it). */
  firstBulky: boolean;
  lastBulky: boolean;
}

/** A content whose tool arguments and results serialise to more than this is probed without them. */
const BULKY_JSON_CHARS = 16_384;

function isBulky(texts: JsonTexts): boolean {
  for (const text of texts.values()) if (text.length > BULKY_JSON_CHARS) return true;
  return false;
}

interface MeasureCacheLimits {
  /** Sessions (x agents) whose measures are kept. @default 1,000 */
  readonly sessions?: number;
  /** Entries of the fingerprint → tokens memo. @default 200,000 */
  readonly contents?: number;
}

export class ContentMeasureCache {
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly byFingerprint = new Map<string, number>();
  private readonly maxSessions: number;
  private readonly maxContents: number;
  /** Contents measured (tokenized or found in the memo) since creation; for benchmarks and tests. */
  measuredContents = 0;

  constructor(limits: MeasureCacheLimits = {}) {
    this.maxSessions = limits.sessions ?? 1_000;
    this.maxContents = limits.contents ?? 200_000;
  }

  /** Measures `contents`, reusing what is known for `key` (session id + agent name). */
  measure(key: string, contents: readonly Content[], tokenizer: Tokenizer): ContentMeasures {
    let entry = this.sessions.get(key);
    if (entry) this.sessions.delete(key); // re-inserted below: most recently used last
    const known = entry ? this.reusablePrefix(entry, contents) : 0;
    if (!entry || known < entry.fingerprints.length) {
      entry = {
        fingerprints: entry?.fingerprints.slice(0, known) ?? [],
        tokens: entry?.tokens.slice(0, known) ?? [],
        framing: entry?.framing.slice(0, known) ?? [],
        firstProbe: known > 0 ? (entry?.firstProbe ?? '') : '',
        lastProbe: '',
        firstBulky: known > 0 ? (entry?.firstBulky ?? false) : false,
        lastBulky: false,
      };
    }
    for (let i = known; i < contents.length; i++) {
      const content = contents[i] as Content;
      // The JSON texts of tool data the fingerprint makes are counted from, not serialised again.
      const texts: JsonTexts = new Map();
      const print = fingerprint(content, texts);
      entry.fingerprints.push(print);
      entry.tokens.push(this.tokensOf(print, content, tokenizer, texts));
      entry.framing.push(contentFramingTokens(content));
      const bulky = isBulky(texts);
      if (i === 0) {
        entry.firstBulky = bulky;
        entry.firstProbe = probeFingerprint(content, { skipBulk: bulky });
      }
      if (i === contents.length - 1) {
        entry.lastBulky = bulky;
        entry.lastProbe = probeFingerprint(content, { skipBulk: bulky });
      }
    }
    this.sessions.set(key, entry);
    if (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    // A snapshot: the entry grows in place on the next call, possibly while this one is still in use
    // (the guard awaits the summarizer between measuring and using the measures).
    return { fingerprints: entry.fingerprints.slice(), tokens: entry.tokens.slice(), framing: entry.framing.slice() };
  }

  /** Drops what is known about one key (for example when a session is deleted). */
  forget(key: string): void {
    this.sessions.delete(key);
  }

  /** Drops every key that starts with `prefix` (all agents of one session). */
  forgetPrefix(prefix: string): void {
    for (const key of [...this.sessions.keys()]) if (key.startsWith(prefix)) this.sessions.delete(key);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * How many leading contents are the ones measured last time: all of them when the first and the last
   * known positions still hold the same contents (compared by bounded probes, so a huge tool result at
   * either end does not make every call walk it again), else none.
   */
  private reusablePrefix(entry: SessionEntry, contents: readonly Content[]): number {
    const count = entry.fingerprints.length;
    if (count === 0 || count > contents.length) return 0;
    const first = contents[0];
    const last = contents[count - 1];
    if (!first || !last) return 0;
    if (probeFingerprint(first, { skipBulk: entry.firstBulky }) !== entry.firstProbe) return 0;
    if (probeFingerprint(last, { skipBulk: entry.lastBulky }) !== entry.lastProbe) return 0;
    return count;
  }

  private tokensOf(print: string, content: Content, tokenizer: Tokenizer, texts: JsonTexts): number {
    this.measuredContents++;
    const known = this.byFingerprint.get(print);
    if (known !== undefined) return known;
    const tokens = estimateContentTokens(content, tokenizer, texts);
    if (this.byFingerprint.size >= this.maxContents) {
      const oldest = this.byFingerprint.keys().next().value;
      if (oldest !== undefined) this.byFingerprint.delete(oldest);
    }
    this.byFingerprint.set(print, tokens);
    return tokens;
  }
}
