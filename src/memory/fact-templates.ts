/**
 * Templates of durable facts (memory/durable-facts.ts): the user's sentences that differ only in their numbered words.
 */

/** What a template reads of a fact. */
interface Fact {
  readonly text: string;
  readonly pasted?: true | undefined;
  readonly listed?: true | undefined;
}

/**
 * Facts of one template (their text with every numbered word as `#`) kept at their own rank; older ones rank lower.
 * Six, not two: a user's own short list of one shape ("Never reboot host web-01.", "… web-07.", "… web-09.") is not
 * routine, and with two its first was lost to later chatter (review 52).
 */
const TEMPLATE_KEEP = 6;
/** A template with a word of letters: a bare value ("ORD-77415-QX", "2027-01-22") is an answer, not a routine line. */
const WORDED = /\p{L}/u;
/** What separates words: a word is a run of letters, digits and `_ # -` ("TCK-4089", "U#12", "v2", "126"). */
const WORD_BREAK = /([^\p{L}\p{N}_#-]+)/u;
/** A numbered word: one holding a digit or `#` (a number, an id), what routine lines change from one to the next. */
const NUMBERED = /[\p{N}#]/u;

/**
 * The user's facts that repeat a template beyond its `TEMPLATE_KEEP` most recent: sentences that differ only in
 * their numbered words ("Thanks, turn 126.", "Show me panels, batch 125.", "Please look at ticket TCK-4089 next.")
 * are routine lines, and rank below the user's other words, above a paste's data; they are kept while there is room.
 * Without this, sixty such lines of later chatter, each seen more recently, pushed "Never email me", the budget and
 * the order ids out of the facts, and the agent e-mailed the user (the forty-first outside trial); with numbers alone
 * and not ids, 59 ticket lines pushed out the opening's order id and "Never use the staging DB db-staging-3" (the
 * fifty-seventh). Ranking constraint words or the oldest statements above recency instead let a stale "budget at most
 * $400" outlive "Actually, make that $600" (review 34, review 51). A paste's lines never count (review 35).
 */
export function templateRepeats<T extends Fact>(
  facts: readonly T[],
  byRecency: (a: T, b: T) => number,
  keyOf: (text: string) => string,
): Set<T> {
  const byTemplate = new Map<string, T[]>();
  for (const fact of facts) {
    const template = fact.pasted || fact.listed ? '' : templateOf(keyOf(fact.text));
    if (!WORDED.test(template)) continue;
    const group = byTemplate.get(template);
    if (group) group.push(fact);
    else byTemplate.set(template, [fact]);
  }
  const repeats = new Set<T>();
  for (const group of byTemplate.values())
    if (group.length > TEMPLATE_KEEP) for (const fact of group.sort(byRecency).slice(TEMPLATE_KEEP)) repeats.add(fact);
  return repeats;
}

/** A fact's text with every numbered word as `#` (split, not one pattern: linear on any text). */
function templateOf(text: string): string {
  return text
    .split(WORD_BREAK)
    .map((word) => (NUMBERED.test(word) ? '#' : word))
    .join('');
}
