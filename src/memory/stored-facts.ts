/**
 * Durable facts as the summary record stores them, read back tolerantly: they may have been
 * written by an older version, another replica or a hand edit.
 */
import type { DurableFact } from './durable-facts.js';
import { askedToKeep } from './fact-sentences.js';

/**
 * Decodes a stored fact list: absent reads as none, a plain string as a fact (a hand edit), and anything else
 * as `null`, unusable. A fact dropped here would be gone for good (the messages it came from are covered), so
 * the caller drops the whole record and the history is summarized afresh. `withOrigins`: the record says its facts
 * carry their origins (summary/stored-summary.ts `factOrigins`).
 */
export function decodeFacts(value: unknown, withOrigins = true): DurableFact[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return null;
  const facts: DurableFact[] = [];
  for (const item of value) {
    const fact = decodeFact(item);
    if (fact === undefined) return null;
    facts.push(withOrigins ? fact : withOriginTold(fact));
  }
  return facts;
}

/**
 * A fact an earlier release stored, which kept no origins: one the user asked to keep ("Remember: ...") is told from
 * its words, so it keeps its rank when the history crosses releases (the thirty-eighth outside trial: a clean
 * upgrade and a rolling deploy each lost the user's "Remember" facts to tool output seen more recently).
 */
function withOriginTold(fact: DurableFact): DurableFact {
  return fact.asked === undefined && fact.pasted === undefined && fact.listed === undefined && askedToKeep(fact.text)
    ? { ...fact, asked: true }
    : fact;
}

function decodeFact(item: unknown): DurableFact | undefined {
  if (typeof item === 'string') return item.length > 0 ? { text: item, addedAt: 0, lastSeen: 0 } : undefined;
  if (typeof item !== 'object' || item === null) return undefined;
  const { text, addedAt, lastSeen, asked, pasted, listed } = item as Record<string, unknown>;
  if (typeof text !== 'string' || text.length === 0) return undefined;
  const added = Number(addedAt);
  const seen = Number(lastSeen);
  return {
    text,
    addedAt: Number.isFinite(added) ? added : 0,
    lastSeen: Number.isFinite(seen) ? seen : 0,
    ...(asked === true ? { asked } : {}),
    ...(pasted === true ? { pasted } : {}),
    ...(listed === true && pasted !== true ? { listed } : {}),
  };
}

/**
 * Whether a stored fact list shows that its writer kept origins: a fact marked `asked`, `pasted` or `listed` (the
 * release of 2026-12-05 to 2026-12-07 kept them but did not yet say so on the record; review 33).
 */
export function showsOrigins(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  return value.some((item: unknown) => {
    if (typeof item !== 'object' || item === null) return false;
    const { asked, pasted, listed } = item as Record<string, unknown>;
    return asked === true || pasted === true || listed === true;
  });
}
