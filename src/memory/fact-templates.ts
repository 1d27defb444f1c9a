/**
 * Templates of durable facts (memory/durable-facts.ts): the user's sentences that differ only in their numbered words.
 */

import { LIST_MARKERS, statesConstraint } from './fact-sentences.js';

/** What a template reads of a fact. */
interface Fact {
  readonly text: string;
  readonly pasted?: true | undefined;
  readonly listed?: true | undefined;
}

/** A template with a word of letters: a bare value ("ORD-77415-QX", "2027-01-22") is an answer, not a routine line. */
const WORDED = /\p{L}/u;
/** What separates words: a word is a run of letters, digits and `_ # -` ("TCK-4089", "U#12", "v2", "126"). */
const WORD_BREAK = /([^\p{L}\p{N}_#-]+)/u;
/** A numbered word: one holding a digit or `#` (a number, an id), what routine lines change from one to the next. */
const NUMBERED = /[\p{N}#]/u;

/**
 * The user's facts that repeat a template beyond its most recent, each with its depth (0 for the most recent of
 * them): sentences that differ only in their numbered words ("Thanks, turn 126.", "Please look at ticket TCK-4089
 * next.") are routine lines, and rank below the user's other words (the second latest above the summarizer's picks,
 * older ones below them, the shallowest first: each template's third latest, then each one's fourth …), above a
 * paste's data; they are kept while there is room. The latest is the one the user said last (`latestFirst`).
 * Without this, sixty such lines of later chatter, each seen more recently, pushed "Never email me", the budget and
 * the order ids out of the facts (the forty-first outside trial); with numbers alone and not ids, 59 ticket lines pushed out the opening's
 * order id and "Never use the staging DB db-staging-3" (the fifty-seventh). Ranking constraint words or the oldest
 * statements above recency instead let a stale "budget at most $400" outlive "Actually, make that $600" (review 34,
 * review 51). Some facts never count (`standsAlone`). Keeping more of every template at the user's rank let 25 kinds
 * of status line push out the user's rules on a small room (the fifty-ninth trial: six each, eight rules; two each,
 * four rules, the refund cap and a standing request); by depth, three release dates or four prices told apart in
 * separate messages keep their older ones ahead of a routine template's older lines (review 52).
 */
export function templateRepeats<T extends Fact>(
  facts: readonly T[],
  latestFirst: (a: T, b: T) => number,
  keyOf: (text: string) => string,
): Map<T, number> {
  const byTemplate = new Map<string, T[]>();
  for (const fact of facts) {
    const template = standsAlone(fact) ? '' : templateOf(keyOf(fact.text));
    if (!WORDED.test(template)) continue;
    const group = byTemplate.get(template);
    if (group) group.push(fact);
    else byTemplate.set(template, [fact]);
  }
  const repeats = new Map<T, number>();
  for (const group of byTemplate.values())
    supersededLast(group.sort(latestFirst), keyOf)
      .slice(1) // all but the most recent
      .forEach((fact, depth) => repeats.set(fact, depth));
  return repeats;
}

/**
 * A template's facts, latest first, then those a later one supersedes: of two facts with two or more numbered words
 * that share the first ("Flight 2 is LH 1235 on 2027-03-09." before "Flight 2 is LH 1237 on 2027-03-10.") or differ
 * in one only ("Book 3 seats on flight LH 1234." before "Book 4 seats on flight LH 1234."), the earlier is an older
 * value of the same thing and ranks below the template's other things ("Flight 1 is LH 1234 on 2027-03-02.": the
 * sixty-first trial kept the stale Flight 2 beside its correction and lost Flight 1; review 54: the thing's number is
 * not always first). One numbered word tells nothing: "Order ORD-1 is late." and "Order ORD-2 is late." are two orders.
 */
function supersededLast<T extends Fact>(latestFirst: readonly T[], keyOf: (text: string) => string): T[] {
  const words = latestFirst.map((fact) => numberedWords(keyOf(fact.text)));
  const superseded = new Set<T>();
  latestFirst.forEach((fact, at) => {
    const own = words[at] ?? [];
    if (own.length >= 2 && words.slice(0, at).some((later) => sameThing(own, later))) superseded.add(fact);
  });
  return [...latestFirst.filter((fact) => !superseded.has(fact)), ...superseded];
}

/** Whether two facts' numbered words (as many) name one thing: the same first, or all but one the same. */
function sameThing(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && (a[0] === b[0] || differInOne(a, b));
}

function numberedWords(text: string): string[] {
  return text.split(WORD_BREAK).filter((word) => NUMBERED.test(word));
}

/** Whether two lists of numbered words, as long, differ in exactly one place. */
function differInOne(a: readonly string[], b: readonly string[]): boolean {
  let differences = 0;
  for (let i = 0; i < a.length && differences < 2; i++) if (a[i] !== b[i]) differences++;
  return differences === 1;
}

/**
 * Whether a fact is never a template's repeat: a paste's line or a summarizer's pick (ranked apart), a constraint (a
 * user's own rules of one shape, "Never reboot host web-01." …, review 52) or an item of a list the user wrote (five
 * files "- src/billing/invoice-v1.ts" … in one message: the fifty-ninth trial lost the first three to chatter).
 */
function standsAlone(fact: Fact): boolean {
  return fact.pasted === true || fact.listed === true || statesConstraint(fact.text) || LIST_MARKERS.test(fact.text);
}

/** A fact's text with every numbered word as `#` (split, not one pattern: linear on any text). */
function templateOf(text: string): string {
  return text
    .split(WORD_BREAK)
    .map((word) => (NUMBERED.test(word) ? '#' : word))
    .join('');
}
