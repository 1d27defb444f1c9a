/**
 * Templates of durable facts (memory/durable-facts.ts): the user's sentences that differ only in their bare numbers.
 */

/** What a template reads of a fact. */
interface Fact {
  readonly text: string;
  readonly pasted?: true | undefined;
  readonly listed?: true | undefined;
}

/** Facts of one template (their text with every bare number as `#`) kept at their own rank; older ones rank lower. */
const TEMPLATE_KEEP = 2;
/** A number standing alone ("turn 126", "$400"), not the digits of an identifier (ORD-48213, AF1234, v2). */
const BARE_NUMBER = /(?<![\p{L}\p{N}\-_#])\d+/gu;

/**
 * The user's facts that repeat a template beyond its `TEMPLATE_KEEP` most recent: sentences that differ only in
 * their bare numbers ("Thanks, turn 126.", "Show me panels, batch 125.") are one fact's worth of room, and rank below
 * the user's other words, above a paste's data. Without this, sixty such lines of later chatter, each seen more
 * recently, pushed "Never email me", the budget and the order ids out of the facts, and the agent e-mailed the user
 * (the forty-first outside trial); ranking constraint words above recency instead let a stale "budget at most $400"
 * outlive "Actually, make that $600" (review 34). An identifier's digits stay in the template, so "Order ORD-1 is
 * late." and "Order ORD-2 is late." are two facts, and a paste's lines never count (review 35).
 */
export function templateRepeats<T extends Fact>(
  facts: readonly T[],
  byRecency: (a: T, b: T) => number,
  keyOf: (text: string) => string,
): Set<T> {
  const byTemplate = new Map<string, T[]>();
  for (const fact of facts) {
    if (fact.pasted || fact.listed) continue;
    const template = keyOf(fact.text).replace(BARE_NUMBER, '#');
    const group = byTemplate.get(template);
    if (group) group.push(fact);
    else byTemplate.set(template, [fact]);
  }
  const repeats = new Set<T>();
  for (const group of byTemplate.values())
    if (group.length > TEMPLATE_KEEP) for (const fact of group.sort(byRecency).slice(TEMPLATE_KEEP)) repeats.add(fact);
  return repeats;
}
