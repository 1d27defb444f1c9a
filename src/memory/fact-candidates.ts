/**
 * Fact candidates from the user's messages (memory/durable-facts.ts merges them): the sentences that are facts by
 * their words or say they correct one (memory/fact-sentences.ts), a paste's first and last only, the session's first
 * sentence when a summary first reads it.
 */
import type { Content } from '@google/genai';
import { contentText, isUserRequest } from '../content/content-shape.js';
import { truncateEnd } from '../text/truncate-text.js';
import { MAX_FACT_CHARS, type FactCandidate } from './durable-facts.js';
import { askedToKeep, correctsAlone, isCandidate, isCorrection } from './fact-sentences.js';

/** Sentences longer than this are data, not facts; they are not scanned. */
const MAX_SENTENCE_CHARS = 2_000;
/** A paste: a message of more than this many candidates and more than `PASTE_CHARS` characters. */
const MAX_FACTS_PER_MESSAGE = 8;
const PASTE_CHARS = 1_500;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 8);
}

/**
 * Fact candidates from the user's messages among `contents`, in order. `openingAt`: where among `contents` the
 * session's first message is, when this summary is the first to read it: its first sentence is a marked fact whatever
 * its words, since it is usually the task ("write a script that counts the Mondays …" holds no identifier; the
 * fifty-fourth and fifty-fifth outside trials lost it; review 48: a first summary made inside the first turn keeps
 * that message, and a later one reads it).
 */
export function extractFacts(contents: readonly Content[], openingAt?: number): FactCandidate[] {
  const facts: FactCandidate[] = [];
  contents.forEach((content, at) => {
    if (!isUserRequest(content)) return;
    const text = contentText(content);
    let rest = sentences(text);
    const [opening] = rest;
    if (at === openingAt && opening !== undefined) {
      facts.push({ text: truncateEnd(opening, MAX_FACT_CHARS), asked: true });
      rest = rest.slice(1);
    }
    const found = rest.flatMap((sentence) => foundIn(sentence));
    facts.push(...fewest(found, text.length > PASTE_CHARS));
  });
  return facts;
}

/** A sentence as a candidate, if it is one: by its own words, or as a correction (kept only if it ties, at merge). */
function foundIn(sentence: string): string[] {
  if (sentence.length > MAX_SENTENCE_CHARS) return [];
  return isCandidate(sentence) || isCorrection(sentence) ? [truncateEnd(sentence, MAX_FACT_CHARS)] : [];
}

/**
 * One message's candidates: all, marked where asked to be kept; of a paste (a long message of more than the cap: a
 * log, a manual), its first and last, none marked, no correction that is nothing else (review 9: a user's own nine
 * short rules are not a paste).
 */
function fewest(found: readonly string[], long: boolean): FactCandidate[] {
  if (long && found.length > MAX_FACTS_PER_MESSAGE) {
    // The words around a paste are the user's ("My id is EMP-4471. <notes>"); its inner lines are data, which pushed
    // such an id out of a small window's facts within four compactions of pastes (the thirty-first outside trial).
    const kept = ends(found.filter((text) => !correctsAlone(text)));
    return kept.map((text, at) => (at === 0 || at === kept.length - 1 ? { text } : { text, pasted: true }));
  }
  // At most the cap's first and last marked of one message (review 10: forty short "Remember C-n." lines pushed the
  // user's earlier marked order id out of the marked share).
  const marked = new Set(ends(found.filter(askedToKeep)));
  return found.map((text) => ({ text, asked: marked.has(text) }));
}

/** The first and last of `items`, `MAX_FACTS_PER_MESSAGE` in all; all of them when there are no more. */
function ends<T>(items: readonly T[]): T[] {
  if (items.length <= MAX_FACTS_PER_MESSAGE) return [...items];
  const head = items.slice(0, Math.ceil(MAX_FACTS_PER_MESSAGE / 2));
  return [...head, ...items.slice(items.length - Math.floor(MAX_FACTS_PER_MESSAGE / 2))];
}
