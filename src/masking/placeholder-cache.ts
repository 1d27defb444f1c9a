import type { Content } from '@google/genai';
import type { ContentMeasures } from '../estimate/content-measure-cache.js';
import { HeadDigestMemo } from '../state/head-digest-memo.js';
import type { MaskHint } from './placeholder-text.js';
import type { KeptPlaceholders } from './kept-placeholders.js';
import type { MaskedEntry } from './masked-entry.js';

/**
 * Placeholders built once. The masked view is sent on every call, and every placeholder in it is
 * the same text on every call (a pure function of the content and the hint; its measured count only
 * decides whether it is masked), but building one serialises the result and walks it for its excerpt
 * and identifiers: with hundreds of masked
 * results, rebuilding them all made every call O(history) (4.8 ms at 900k tokens; issue 27).
 *
 * The cache keeps, per session and agent (the key is app + user + session + agent, as for the
 * measure cache), what masking made of the content at each position of the masked range, with
 * the original content's fingerprint (which hashes tool results through their whole JSON) and
 * measured count: while the position holds a content of that fingerprint and count, a call reads
 * neither the content nor its result again. The placeholders also depend on the hint (the recall
 * tool's name, each tool's read-only verdict): a session's entries are kept with the verdicts
 * they were built under, checked once per call for the few tool names they hold, and all dropped
 * when one differs (a per-entry check cost a string per masked content on every call). The masked content kept is the cache's own; every call gets a fresh copy of it,
 * so a callback that edits the request in place cannot change what a later call sends. One
 * session's entries are never read for another's. Bounded: least recently used sessions are
 * dropped first, then a session's own lowest positions. A miss only costs time.
 */

/**
 * The masked range of the last view built for a session and agent: the next call takes its entries
 * for every leading position that still holds the same fingerprint and count, without a lookup each.
 */
export interface KeptView {
  readonly covered: number;
  readonly upTo: number;
  /** The fingerprints and counts the view was built from (the measure's snapshot arrays, never changed). */
  readonly fingerprints: readonly string[];
  readonly tokens: readonly number[];
  /** The measure cache's snapshot those arrays are (its `change.generation`), when they are one. */
  readonly generation?: number | undefined;
  /** The positions in [covered, upTo) masking changed, ascending, their entries and placeholders. */
  readonly placeholders: KeptPlaceholders;
}

/** One session and agent's entries, by position in the history, for one hint. */
export interface PlaceholderMemo {
  /** The entry at `index` if it was built under `hint`'s verdicts. */
  at(index: number, hint: MaskHint): MaskedEntry | undefined;
  set(index: number, entry: MaskedEntry, hint: MaskHint): void;
  /** The last view kept under `hint`'s verdicts, if any. */
  lastView(hint: MaskHint): KeptView | undefined;
  keepView(view: KeptView, hint: MaskHint): void;
  /** The session and agent's last digested head of covered contents (a mask's record, state/head-digest-memo.ts). */
  readonly coveredHead: HeadDigestMemo;
  /** This call's measures of the session and agent's contents, when the shell gave them: what changed since the last. */
  readonly measured?: Pick<ContentMeasures, 'change' | 'fingerprints' | 'tokens'> | undefined;
}

/** A session's entries and the hint they were built under: the recall tool and the verdicts on their tools. */
class SessionEntries {
  readonly entries = new Map<number, MaskedEntry>();
  /** The last view's masked range, dropped with the entries (its entries are built under the same hint). */
  view: KeptView | undefined;
  /** Independent of the hint: kept when the entries are dropped. */
  readonly coveredHead = new HeadDigestMemo();
  private recallToolName: string | undefined;
  private readonly readOnly = new Map<string, boolean>();
  /** The last hint found to agree: a call builds one hint, so the check runs once per call. */
  private checked: MaskHint | undefined;

  /** Drops every entry unless `hint` gives the verdicts they were built under; returns how many were dropped. */
  align(hint: MaskHint): number {
    if (hint === this.checked) return 0;
    this.checked = hint;
    let agrees = hint.recallToolName === this.recallToolName;
    for (const [name, verdict] of this.readOnly) if (agrees) agrees = (hint.isReadOnly?.(name) === true) === verdict;
    if (agrees) return 0;
    const dropped = this.entries.size;
    this.entries.clear();
    this.view = undefined;
    this.readOnly.clear();
    this.recallToolName = hint.recallToolName;
    return dropped;
  }

  /** Notes the verdicts on the tools of `masked` (entries are only set after `align` with the same hint). */
  note(masked: Content | undefined, hint: MaskHint): void {
    for (const part of masked?.parts ?? []) {
      const name = part.functionResponse?.name;
      if (name !== undefined && !this.readOnly.has(name)) this.readOnly.set(name, hint.isReadOnly?.(name) === true);
    }
  }
}

interface CacheLimits {
  /** Sessions (x agents) kept. @default 1,000 */
  readonly sessions?: number;
  /** Entries kept in all (a few hundred bytes each). @default 50,000 */
  readonly entries?: number;
}

export class PlaceholderCache {
  private readonly sessions = new Map<string, SessionEntries>();
  private readonly maxSessions: number;
  private readonly maxEntries: number;
  private entries = 0;

  constructor(limits: CacheLimits = {}) {
    this.maxSessions = limits.sessions ?? 1_000;
    this.maxEntries = limits.entries ?? 50_000;
  }

  /** The memo of `key` (session + agent), made the most recently used; `measured`: this call's measures of the same key. */
  for(key: string, measured?: PlaceholderMemo['measured']): PlaceholderMemo {
    let session = this.sessions.get(key);
    if (session) this.sessions.delete(key);
    else session = new SessionEntries();
    this.sessions.set(key, session);
    this.evict(key);
    const own = session;
    own.coveredHead.follow(measured?.change);
    const align = (hint: MaskHint): void => {
      const dropped = own.align(hint);
      if (dropped > 0 && this.sessions.get(key) === own) this.entries -= dropped;
    };
    return {
      measured,
      coveredHead: own.coveredHead,
      at: (index, hint) => {
        align(hint);
        return own.entries.get(index);
      },
      set: (index, entry, hint) => {
        // A memo handed out before its session was dropped keeps working, uncounted and unseen.
        if (this.sessions.get(key) !== own) return;
        align(hint);
        own.note(entry.masked, hint);
        if (!own.entries.has(index)) this.entries++;
        own.entries.set(index, entry);
        this.evict(key);
      },
      lastView: (hint) => {
        align(hint);
        return own.view;
      },
      keepView: (view, hint) => {
        align(hint);
        own.view = view;
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
      const own = this.sessions.get(current)?.entries;
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
    this.entries -= this.sessions.get(key)?.entries.size ?? 0;
    this.sessions.delete(key);
  }
}
