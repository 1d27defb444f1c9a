/**
 * A value JSON can write: a record or list that holds itself (a cycle) makes `JSON.stringify` throw, and
 * ADK's runner stringifies every stored event of a session at the start of a turn. The copy leaves out
 * only the reference that closes a cycle: what it pointed to is already in the copy, above it.
 */

/** Whether a record or list inside `value` refers back to one that holds it. */
export function hasCycle(value: unknown, holders: Set<object> = new Set()): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (holders.has(value)) return true;
  holders.add(value);
  for (const child of Object.values(value)) if (hasCycle(child, holders)) return true;
  holders.delete(value);
  return false;
}

/**
 * `value` with every cycle cut: a record's key whose value holds the record is left out, a list's item
 * becomes null (its length and the other items' places stay). Shared parts that close no cycle are copied
 * as they are; only records and lists are copied (another object is walked as a record of its own keys).
 */
export function acyclicCopy(value: unknown, holders: Set<object> = new Set()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  holders.add(value);
  const copy = Array.isArray(value)
    ? value.map((item: unknown) => (isHolder(item, holders) ? null : acyclicCopy(item, holders)))
    : copyRecord(value as Record<string, unknown>, holders);
  holders.delete(value);
  return copy;
}

function copyRecord(record: Record<string, unknown>, holders: Set<object>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record))
    if (!isHolder(item, holders)) copy[key] = acyclicCopy(item, holders);
  return copy;
}

function isHolder(value: unknown, holders: Set<object>): boolean {
  return typeof value === 'object' && value !== null && holders.has(value);
}
