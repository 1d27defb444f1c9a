/**
 * Search over a session's stored events, for the recall tool: the original
 * messages and tool results that summaries replaced are still in ADK's event
 * log, so the model can get an exact detail back instead of a paraphrase.
 *
 * Ranking is lexical (identifiers matter more than meaning here): each query
 * term scores by occurrences (as a word of its own; inside longer words a
 * quarter as much), rarer terms weigh more, and an event holding the
 * whole query as typed ranks above every event that does not (the eighth
 * outside trial: "my order id" found the user's "Remember: my order id is
 * ORD-7731." below six long logs holding "order" and "id=" many times). Results
 * and excerpts are bounded.
 */
import type { Content } from '@google/genai';
import { renderContent } from '../summary/render-content.js';
import { searchText } from './search-text.js';
import { safeHead } from '../text/truncate-text.js';

export interface SearchableEvent {
  readonly id: string;
  readonly author?: string | undefined;
  readonly timestamp: number;
  readonly invocationId?: string | undefined;
  readonly branch?: string | undefined;
  readonly content?: Content | undefined;
}

interface RecallHit {
  readonly eventId: string;
  /**
   * 1-based turn of the event within the session: the user's messages counted up to it. An invocation that the
   * application's answer to a confirmation or a long-running call starts belongs to the turn before it (the
   * thirty-first outside trial: a user's 4th question read back as turn 11 when every confirmation counted as one).
   */
  readonly turn: number;
  readonly author: string;
  readonly score: number;
  readonly snippet: string;
}

/** An attached text file is searched whole (review 17: a row in the middle of a 1 MB CSV was not found). */
const FULL_TEXT_LIMITS = {
  textChars: 200_000,
  argumentChars: 50_000,
  resultChars: 200_000,
  attachmentChars: Number.POSITIVE_INFINITY,
};

/** Full text of an event as the recall tool shows it. */
function eventText(event: SearchableEvent): string {
  return event.content ? renderContent(event.content, FULL_TEXT_LIMITS) : '';
}

/** An event's text as the search reads it: tool data as its values (recall/search-text.ts). */
function searchedText(event: SearchableEvent): string {
  const { content } = event;
  if (!content) return '';
  let text = searchedTexts.get(content);
  if (text === undefined) searchedTexts.set(content, (text = searchText(content, FULL_TEXT_LIMITS)));
  return text;
}

/**
 * Each content's searched text, while the content lives: a tool loop's searches read the same events of one
 * invocation again (ADK hands each invocation its own copy of the session's events, and never edits one in place).
 */
const searchedTexts = new WeakMap<Content, string>();

/** Whether an agent on `branch` sees an event (ADK's rule: the event's branch is a prefix of the agent's). */
export function isVisibleTo(event: SearchableEvent, branch: string | undefined): boolean {
  if (!event.branch || !branch) return true;
  return branch === event.branch || branch.startsWith(`${event.branch}.`);
}

function terms(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}_\-./#@]+/u)
        // A sentence's full stop is not part of the id it ends ("my order is ORD-7731."): review 41.
        .map((term) => term.replace(/[.\-/]+$/u, ''))
        .filter((term) => term.length >= 2),
    ),
  ];
}

/**
 * Occurrences of a term in a text: as a word of its own, and inside a longer word ("fail" in "failover"), which weighs
 * PART_WEIGHT as much (the forty-ninth outside trial: "FAIL" found eight files full of "failover" before the test run
 * that failed).
 */
function countOccurrences(haystack: string, needle: string): { whole: number; inside: number } {
  let whole = 0;
  let inside = 0;
  for (
    let at = haystack.indexOf(needle);
    at >= 0 && whole + inside < MAX_OCCURRENCES;
    at = haystack.indexOf(needle, at + needle.length)
  )
    if (standsAlone(haystack, needle, at)) whole++;
    else inside++;
  return { whole, inside };
}

/** Occurrences of a term counted in one text, at most (a score grows with their logarithm). */
const MAX_OCCURRENCES = 1_000;

/** What an occurrence inside a longer word counts, against one as a word of its own. */
const PART_WEIGHT = 0.25;

/** A term's score in one event's text, before its rarity: by its occurrences as a word, else a part of those inside words. */
function occurrenceScore({ whole, inside }: { whole: number; inside: number }): number {
  if (whole > 0) return 1 + Math.log(whole);
  return inside > 0 ? PART_WEIGHT * (1 + Math.log(inside)) : 0;
}

/** True when an event is a call of the tool named `toolName` or its answer (recall must not find itself). */
function isCallOf(event: SearchableEvent, toolName: string | undefined): boolean {
  if (toolName === undefined) return false;
  const parts = event.content?.parts ?? [];
  return (
    parts.length > 0 &&
    parts.every((part) => part.functionCall?.name === toolName || part.functionResponse?.name === toolName)
  );
}

/** Where `needle` first stands as a word of its own in `lower`, else where it first occurs. */
function firstAlone(lower: string, needle: string): number {
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, nextTry(lower, needle, at)))
    if (standsAlone(lower, needle, at)) return at;
  return lower.indexOf(needle);
}

function snippetAround(text: string, lower: string, needle: string, chars: number): string {
  // `lower` is `text` lower-cased; where lower-casing changed the length (İ), the index is only a guide.
  const at = lower.length === text.length ? firstAlone(lower, needle) : 0;
  const start = Math.max(0, at - Math.floor(chars / 3));
  const piece = safeHead(text.slice(start), chars);
  return `${start > 0 ? '…' : ''}${piece}${start + piece.length < text.length ? '…' : ''}`.replace(/\s+/g, ' ');
}

/** Ranked hits for `query` among `events` (visible ones only), at most `limit`. */
export function searchEvents(
  events: readonly SearchableEvent[],
  query: string,
  options: {
    branch?: string | undefined;
    limit?: number;
    snippetChars?: number;
    excludeTool?: string | undefined;
    /** The calling invocation: its user message, which the model has in front of it, goes after hits about as good. */
    invocation?: string | undefined;
  } = {},
): RecallHit[] {
  const queryTerms = terms(query);
  if (queryTerms.length === 0) return [];
  const phrase = query.trim().toLowerCase();
  const turnOf = new Map<string, number>();
  const texts: { event: SearchableEvent; text: string; lower: string; turn: number }[] = [];
  let turns = 0;
  for (const event of events) {
    const invocation = event.invocationId ?? event.id;
    if (!turnOf.has(invocation)) {
      if (startsTurn(event)) turns += 1;
      turnOf.set(invocation, Math.max(1, turns));
    }
    if (!event.content || !isVisibleTo(event, options.branch) || isCallOf(event, options.excludeTool)) continue;
    const text = searchedText(event);
    if (text.length > 0) texts.push({ event, text, lower: text.toLowerCase(), turn: turnOf.get(invocation) ?? 1 });
  }
  const documentFrequency = new Map<string, number>();
  for (const term of queryTerms)
    documentFrequency.set(term, texts.filter((entry) => entry.lower.includes(term)).length);
  const scored: { entry: (typeof texts)[number]; score: number; best: string; exact: boolean }[] = [];
  let topInexact = 0;
  for (const entry of texts) {
    let score = 0;
    let best: string | undefined;
    for (const term of queryTerms) {
      const occurrences = occurrenceScore(countOccurrences(entry.lower, term));
      if (occurrences === 0) continue;
      const rarity = Math.log(1 + texts.length / (documentFrequency.get(term) ?? 1));
      score += occurrences * rarity;
      best ??= term;
    }
    const exact = phrase.length >= 3 && containsPhrase(entry.lower, phrase);
    if (!exact) topInexact = Math.max(topInexact, score);
    if (score > 0 && best) scored.push({ entry, score, best: exact ? phrase : best, exact });
  }
  // The whole query as typed outranks any number of its words apart.
  const position = new Map(texts.map((entry, at) => [entry, at]));
  const hits = scored.map(({ entry, score, best, exact }) => ({
    at: position.get(entry) ?? 0,
    asked:
      options.invocation !== undefined && entry.event.invocationId === options.invocation && startsTurn(entry.event),
    eventId: entry.event.id,
    turn: entry.turn,
    author: entry.event.author ?? 'unknown',
    score: Math.round((exact ? score + topInexact + 5 : score) * 100) / 100,
    snippet: snippetAround(entry.text, entry.lower, best, options.snippetChars ?? 240),
  }));
  // Of hits as good, the latest event first: a correction ("my budget is now $600") before the value it corrects
  // (the forty-first outside trial: a model trusting the first hit read the stale $400), also within one tool loop,
  // whose events share a turn (review 34).
  hits.sort((a, b) => b.score - a.score || b.at - a.at);
  return askedAfterPeers(hits)
    .slice(0, options.limit ?? 8)
    .map(({ at: _at, asked: _asked, ...hit }) => hit);
}

/** A hit at least this share of the calling turn's message's score ranks before it. */
const ASKED_PEER_SHARE = 0.9;

/**
 * The question being answered holds the query's words too (the fifty-second outside trial: "which order id did I
 * give you?" came before the message that gave it, with the same score): it goes after the hits about as good as
 * it, not after every hit, since a message cut on its way in is read back from here (review 45).
 */
function askedAfterPeers<T extends { readonly asked: boolean; readonly score: number }>(hits: T[]): T[] {
  const at = hits.findIndex((hit) => hit.asked);
  if (at < 0) return hits;
  const asked = hits[at] as T;
  let to = at;
  while (to + 1 < hits.length && (hits[to + 1] as T).score >= asked.score * ASKED_PEER_SHARE) to++;
  return [...hits.slice(0, at), ...hits.slice(at + 1, to + 1), asked, ...hits.slice(to + 1)];
}

/**
 * Whether `text` holds `phrase` as typed, not inside a longer word or number: "checksum c-1" is in "checksum c-1-77",
 * not in "checksum c-10-77" (with the latest of equal hits first, the first run's checksum fell out of the eight hits
 * behind runs 10 to 19).
 */
function containsPhrase(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, nextTry(text, phrase, at)))
    if (standsAlone(text, phrase, at)) return true;
  return false;
}

/**
 * Where to look for `piece` again after an occurrence at `at` that is part of a longer word: past that word, when
 * `piece` starts with a word's character (any later start inside the word is inside a word too). A run of one
 * character (zero padding, a hex dump) matches at every position: 4 s a search of a 20 MB attachment of zeros for
 * "000", one position at a time (the fifty-second outside trial).
 */
function nextTry(text: string, piece: string, at: number): number {
  if (!isWordChar(piece[0] ?? ' ')) return at + 1;
  WORD_END.lastIndex = at + 1;
  return WORD_END.exec(text)?.index ?? text.length;
}

/** Whether `piece`, found in `text` at `at`, is not part of a longer word or number. */
function standsAlone(text: string, piece: string, at: number): boolean {
  return atBoundary(piece[0], text[at - 1]) && atBoundary(piece[piece.length - 1], text[at + piece.length]);
}

/** A character of a word in a spaced script: letters, digits and marks, but not of scripts written without spaces. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/** Scripts written without spaces between words, where any character boundary is a word's (review 35: 订单号). */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** The first character that ends a spaced script's word (one of those a word of `isWordChar` is made of). */
const WORD_END = new RegExp(`[^\\p{L}\\p{N}\\p{M}]|${UNSPACED.source}`, 'gu');

/** Whether the phrase's edge character `inside` and the text's character beside it `outside` are not one word. */
function atBoundary(inside: string | undefined, outside: string | undefined): boolean {
  if (inside === undefined || outside === undefined) return true;
  return !isWordChar(inside) || !isWordChar(outside);
}

/** A character of a spaced script's word (one function, not a closure per call: `tsx` names each closure it makes). */
function isWordChar(char: string): boolean {
  return WORD_CHAR.test(char) && !UNSPACED.test(char);
}

/** A bounded excerpt of one event's text, from `offset`. */
export function readEvent(
  event: SearchableEvent,
  offset: number,
  maxChars: number,
): { text: string; offset: number; totalChars: number; nextOffset?: number } {
  const full = eventText(event);
  const start = Math.max(0, Math.min(offset, full.length));
  const text = safeHead(full.slice(start), maxChars);
  const end = start + text.length;
  return { text, offset: start, totalChars: full.length, ...(end < full.length ? { nextOffset: end } : {}) };
}

/** A user's message (text, an image, a file), not an application's answer to a call: it starts a turn. */
function startsTurn(event: SearchableEvent): boolean {
  const parts = event.content?.parts ?? [];
  return event.author === 'user' && parts.length > 0 && !parts.some((part) => part.functionResponse !== undefined);
}
