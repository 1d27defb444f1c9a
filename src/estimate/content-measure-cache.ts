/**
 * Per-content fingerprints and token estimates, computed once.
 *
 * The before-model callback runs on every model call, and ADK hands it a fresh
 * deep copy of the whole history each time. Re-tokenizing that history would
 * make every step O(history). This cache keeps, per session and agent, the
 * fingerprints and estimates of the contents seen at the previous call, each
 * with a private copy of the content as measured (estimate/kept-content.ts);
 * a content still equal to the copy at its position keeps its measures, any
 * other is measured again. The comparison is exact (an edit anywhere in the
 * history, by another plugin or an agent callback before the guard's, is seen:
 * a probe of the first and last contents alone let a middle edit keep stale
 * counts and placeholders) and costs a visit per node, not per byte: a deep
 * copy shares its strings. A global fingerprint → tokens memo makes even a
 * full re-measure cheap. Where nothing before the guard could edit, the known
 * history is taken on a probe only while the session's events it was built
 * from still lead the session's events, in order: a database reloading a
 * parallel run by timestamp swaps two contents in the middle and keeps the
 * first and last in place.
 *
 * Correctness never depends on this cache: a miss only costs time. It is
 * bounded (least recently used sessions are dropped first).
 */
import type { Content } from '@google/genai';
import { contentFramingTokens, estimateContentTokens } from './estimate-content.js';
import { optionDefault } from '../config/option-table.js';
import { fingerprintOfKept } from './fingerprint.js';
import type { JsonTexts } from './json-text.js';
import { keepSizedCopy, sameAsKept } from './kept-content.js';
import { answersAnEarlierCall, appendedTo, idsOf, type SessionEventIds } from './session-event-ids.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * Characters a kept content may hold per token of the budget when they are more than its tokens: text holds about
 * four a token, so only media (base64 of a few hundred tokens) weighs more than its tokens, at an eighth of its
 * bytes: 32M of budget keeps at most about 256 MB of it, and four concurrent sessions of 60 600 KB screenshots still
 * fit together (review 33: weighed at a quarter, they evicted each other and were measured again on every call).
 */
const CHARS_PER_BUDGET_TOKEN = 8;

/**
 * How a key's snapshot differs from the key's snapshot before it: what was built from that one (the masked
 * view kept across calls, masking/request-view.ts) still holds before `unchangedBefore`, with no comparison.
 */
interface MeasureChange {
  /** This snapshot's number, unique among every snapshot of every cache of the process (never one session's for another's). */
  readonly generation: number;
  /** The number of the key's snapshot before this one, when the cache still held it. */
  readonly previous: number | undefined;
  /** Positions before this one have the same fingerprint, count and framing as in the `previous` snapshot. */
  readonly unchangedBefore: number;
}

/** Snapshots handed out so far, by every cache: the next one's number. */
let generations = 0;

export interface ContentMeasures {
  readonly change: MeasureChange;
  readonly fingerprints: readonly string[];
  readonly tokens: readonly number[];
  /** The estimator's framing of each content (part of its tokens), so a call sums it instead of walking parts. */
  readonly framing: readonly number[];
  /** The cache's own copy of each content as measured (never handed to ADK; compared, never changed). */
  readonly kept: readonly unknown[];
  /**
   * Leading positions taken as they were on the last call without comparing them (the known history held
   * at its first and last positions and the session's events only grew, in order); 0 when every content
   * was compared.
   */
  readonly probedBefore: number;
}

interface SessionEntry {
  readonly fingerprints: string[];
  readonly tokens: number[];
  readonly framing: number[];
  /** The cache's own copy of each content as measured (`keepCopy`). */
  readonly kept: unknown[];
  /** The number of the last snapshot handed out for this key. */
  generation?: number;
  /** The ids of the session's events when the contents were last measured; unknown after an exact measure without them. */
  eventIds?: string[] | undefined;
  /**
   * The events list whose ids `eventIds` were read from, while it is alive: ADK appends a turn's events to one
   * list (a new one per turn, read back from the session service), so on that same list only the ids past
   * the known ones are read.
   */
  eventsRead?: WeakRef<SessionEventIds> | undefined;
  /** The part of the session the contents were last built from (`measure`'s `builtFrom`). */
  builtFrom?: string | undefined;
  /** Each kept content's weight against the token budget: its tokens, or its characters at eight a token when more. */
  readonly weights: number[];
  /** Of `weights`, the sum, kept as they change: what the entry's kept copies hold, against the token budget. */
  total: number;
}

/** How `measure` may trust what it knew of a key, and whose contents it measures. */
interface MeasureOptions {
  /** Something before the guard could have edited any content: every one is compared. @default true */
  readonly exact?: boolean;
  readonly events?: SessionEventIds | undefined;
  readonly builtFrom?: string | undefined;
  readonly appendOnly?: boolean;
  /**
   * The user the contents belong to (app and user id): the fingerprint → tokens memo is kept per user, so that
   * no user's content stands for another's. A fingerprint is 52 bits, and one user could craft a text whose
   * print is another text's, of another size (the forty-seventh outside trial: a request 5% over the window).
   */
  readonly tenant?: string | undefined;
}

interface MeasureCacheLimits {
  /** Sessions (x agents) whose measures are kept. @default 1,000 */
  readonly sessions?: number;
  /** Entries of the fingerprint → tokens memo. @default 200,000 */
  readonly contents?: number;
  /** Tokens of kept contents, all sessions together (docs/performance.md, "Memory"). @default 32,000,000 */
  readonly tokens?: number;
}

/** How many leading contents are the kept ones: all when the first and the last kept still hold, else none. */
function keptPrefix(kept: readonly unknown[], contents: readonly Content[]): number {
  const count = kept.length;
  if (count === 0 || count > contents.length) return 0;
  return sameAsKept(kept[0], contents[0]) && sameAsKept(kept[count - 1], contents[count - 1]) ? count : 0;
}

export class ContentMeasureCache {
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly byFingerprint = new Map<string, number>();
  private readonly maxSessions: number;
  private readonly maxContents: number;
  private readonly maxTokens: number;
  /** Of every entry, the `total`s summed. */
  private keptTokens = 0;
  /** Contents measured (tokenized or found in the memo) since creation; for benchmarks and tests. */
  measuredContents = 0;

  constructor(limits: MeasureCacheLimits = {}) {
    this.maxSessions = limits.sessions ?? 1_000;
    this.maxContents = limits.contents ?? 200_000;
    this.maxTokens = limits.tokens ?? optionDefault('measureCacheTokens');
  }

  /**
   * Measures `contents`, reusing what is known for `key` (session id + agent name). `exact`: something
   * before the guard could have edited any content (adk/hooks/history-editors.ts), so every one is compared;
   * otherwise the contents grow from ADK's append-only `events`, and a known history still in place at its
   * first and last positions is taken as it was (any other change is compared content by content) while
   * the events it was measured on still lead `events` in their order, and the contents are built from the same part
   * of the session (`builtFrom`: ADK's branch and isolation scope, which filter the events one agent sees: the same
   * agent run per item of a fan-out sees another history in each branch). Without `events`, always exact.
   * `appendOnly`: the session's store never reorders or removes events (ADK's `InMemorySessionService`), so a
   * new list of them is checked at its last known id alone.
   */
  measure(
    key: string,
    contents: readonly Content[],
    tokenizer: Tokenizer,
    options: MeasureOptions = {},
  ): ContentMeasures {
    const { exact = true, events, builtFrom, appendOnly = false, tenant = '' } = options;
    const entry = this.sessions.get(key) ?? {
      fingerprints: [],
      tokens: [],
      framing: [],
      kept: [],
      weights: [],
      total: 0,
    };
    const counted = entry.total;
    this.sessions.delete(key); // re-inserted below: most recently used last
    const appended =
      events !== undefined &&
      appendedTo(entry.eventIds, events, entry.eventsRead?.deref(), appendOnly) &&
      !answersAnEarlierCall(events, entry.eventIds?.length ?? 0);
    entry.eventIds = events && idsOf(entry.eventIds, events, appended);
    entry.eventsRead = entry.eventIds && events ? new WeakRef(events) : undefined;
    // A shorter history is not one that grew by appending (a rewind, a compaction), nor one whose events
    // came back in another order (a reload sorted by timestamp): compared in full.
    const sameView = entry.builtFrom === builtFrom;
    entry.builtFrom = builtFrom;
    const whole = exact || !appended || !sameView || entry.kept.length > contents.length;
    if (entry.kept.length > contents.length) {
      for (let i = contents.length; i < entry.weights.length; i++) entry.total -= entry.weights[i] ?? 0;
      for (const list of [entry.fingerprints, entry.tokens, entry.framing, entry.kept, entry.weights])
        list.length = contents.length;
    }
    // Past the known contents everything is new; before them, the first one measured again.
    let unchangedBefore = entry.kept.length;
    const probedBefore = whole ? 0 : keptPrefix(entry.kept, contents);
    for (let i = probedBefore; i < contents.length; i++) {
      const content = contents[i] as Content;
      if (i < entry.kept.length && sameAsKept(entry.kept[i], content)) continue;
      unchangedBefore = Math.min(unchangedBefore, i);
      this.measureAt(entry, i, content, tokenizer, tenant);
    }
    const change = { generation: ++generations, previous: entry.generation, unchangedBefore };
    entry.generation = change.generation;
    this.keep(key, entry, counted);
    // A snapshot: the entry changes in place on the next call, possibly while this one is still in use
    // (the guard awaits the summarizer between measuring and using the measures).
    return {
      change,
      fingerprints: entry.fingerprints.slice(),
      tokens: entry.tokens.slice(),
      framing: entry.framing.slice(),
      kept: entry.kept.slice(),
      probedBefore,
    };
  }

  private measureAt(entry: SessionEntry, index: number, content: Content, tokenizer: Tokenizer, tenant: string): void {
    // The JSON texts of tool data the estimate makes, shared by the count's parts.
    const texts: JsonTexts = new Map();
    const { kept, chars } = keepSizedCopy(content);
    const print = fingerprintOfKept(kept, content);
    entry.fingerprints[index] = print;
    const tokens = this.tokensOf(`${tenant}\u0000${print}`, content, tokenizer, texts);
    // Media's base64 counts few tokens but holds its bytes (the thirty-ninth outside trial: 2 MB photos, 1,000
    // finished sessions kept, out of memory): the budget weighs what the copy holds.
    const weight = Math.max(tokens, Math.ceil(chars / CHARS_PER_BUDGET_TOKEN));
    entry.total += weight - (entry.weights[index] ?? 0);
    entry.weights[index] = weight;
    entry.tokens[index] = tokens;
    entry.framing[index] = contentFramingTokens(content);
    entry.kept[index] = kept;
  }

  /**
   * Keeps `entry` (counted at `counted` tokens before this call) as the most recently used, then drops the least
   * recently used over the session cap or the token budget.
   */
  private keep(key: string, entry: SessionEntry, counted: number): void {
    this.keptTokens += entry.total - counted;
    this.sessions.set(key, entry);
    while (this.sessions.size > this.maxSessions || (this.keptTokens > this.maxTokens && this.sessions.size > 1)) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined || oldest === key) break;
      this.forget(oldest);
    }
  }

  /** Drops what is known about one key (for example when a session is deleted). */
  forget(key: string): void {
    this.keptTokens -= this.sessions.get(key)?.total ?? 0;
    this.sessions.delete(key);
  }

  /** Drops every key that starts with `prefix` (all agents of one session). */
  forgetPrefix(prefix: string): void {
    for (const key of [...this.sessions.keys()]) if (key.startsWith(prefix)) this.forget(key);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** `memoKey`: the user and the content's fingerprint (MeasureOptions.tenant). */
  private tokensOf(memoKey: string, content: Content, tokenizer: Tokenizer, texts: JsonTexts): number {
    this.measuredContents++;
    const known = this.byFingerprint.get(memoKey);
    if (known !== undefined) return known;
    const tokens = estimateContentTokens(content, tokenizer, texts);
    if (this.byFingerprint.size >= this.maxContents) {
      const oldest = this.byFingerprint.keys().next().value;
      if (oldest !== undefined) this.byFingerprint.delete(oldest);
    }
    this.byFingerprint.set(memoKey, tokens);
    return tokens;
  }
}
