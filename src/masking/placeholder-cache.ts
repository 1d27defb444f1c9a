import type { Content } from '@google/genai';

/**
 * Placeholders built once. The masked view is sent on every call, and every placeholder in it is
 * the same text on every call (a pure function of the content, its measured count and the hint),
 * but building one walks the result for its preview and identifiers: with hundreds of masked
 * results, rebuilding them all made every call O(history) (4.8 ms at 900k tokens; issue 27).
 *
 * The cache keeps, per session and agent (the key is app + user + session + agent, as for the
 * measure cache), what masking made of the content at each position of the masked range, with
 * the original content's fingerprint (which hashes tool results through their whole JSON): while
 * the position holds a content of that fingerprint, a call reads neither the content nor its
 * result again. The masked content kept is the cache's own; every call gets a fresh copy of it,
 * so a callback that edits the request in place cannot change what a later call sends. One
 * session's entries are never read for another's. Bounded: least recently used sessions are
 * dropped first, then a session's own lowest positions. A miss only costs time.
 */

/** What masking made of the content at one position of one session's history. */
export interface MaskedEntry {
  /** The original content's fingerprint: the entry holds only while the position holds that content. */
  readonly fingerprint: string;
  /** What the placeholders depend on besides the content: its measured count and the hint's verdicts. */
  readonly terms: string;
  /** The masked content, the cache's own copy (never handed out); `undefined` when masking leaves it as it is. */
  readonly masked: Content | undefined;
  readonly tokens: number;
}

/** One session and agent's entries, by position in the history. */
export interface PlaceholderMemo {
  at(index: number): MaskedEntry | undefined;
  set(index: number, entry: MaskedEntry): void;
}

interface CacheLimits {
  /** Sessions (x agents) kept. @default 1,000 */
  readonly sessions?: number;
  /** Entries kept in all (a few hundred bytes each). @default 50,000 */
  readonly entries?: number;
}

export class PlaceholderCache {
  private readonly sessions = new Map<string, Map<number, MaskedEntry>>();
  private readonly maxSessions: number;
  private readonly maxEntries: number;
  private entries = 0;

  constructor(limits: CacheLimits = {}) {
    this.maxSessions = limits.sessions ?? 1_000;
    this.maxEntries = limits.entries ?? 50_000;
  }

  /** The memo of `key` (session + agent), made the most recently used. */
  for(key: string): PlaceholderMemo {
    let entries = this.sessions.get(key);
    if (entries) this.sessions.delete(key);
    else entries = new Map();
    this.sessions.set(key, entries);
    this.evict(key);
    const own = entries;
    return {
      at: (index) => own.get(index),
      set: (index, entry) => {
        // A memo handed out before its session was dropped keeps working, uncounted and unseen.
        if (this.sessions.get(key) !== own) return;
        if (!own.has(index)) this.entries++;
        own.set(index, entry);
        this.evict(key);
      },
    };
  }

  /** Drops every key that starts with `prefix` (all agents of one session). */
  forgetPrefix(prefix: string): void {
    for (const key of [...this.sessions.keys()]) if (key.startsWith(prefix)) this.drop(key);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  get entryCount(): number {
    return this.entries;
  }

  /** Least recently used sessions first; `current`'s own oldest entries only when it is alone over the bound. */
  private evict(current: string): void {
    while (this.sessions.size > this.maxSessions || this.entries > this.maxEntries) {
      const victim = this.leastRecentOther(current);
      if (victim !== undefined) {
        this.drop(victim);
        continue;
      }
      const own = this.sessions.get(current);
      const first = own?.keys().next().value;
      if (!own || first === undefined) return;
      own.delete(first);
      this.entries--;
    }
  }

  private leastRecentOther(current: string): string | undefined {
    for (const key of this.sessions.keys()) if (key !== current) return key;
    return undefined;
  }

  private drop(key: string): void {
    this.entries -= this.sessions.get(key)?.size ?? 0;
    this.sessions.delete(key);
  }
}
