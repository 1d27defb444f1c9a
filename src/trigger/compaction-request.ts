/**
 * Whether an application's `requestCompaction` is still pending. Each request writes its own id as
 * the mark; the call that serves one records that id as handled and never clears the mark. A
 * request made between a call's read of the mark and that call's write is then a new id the
 * handled one does not equal, so it stays pending for the next call, on any replica: clearing the
 * mark (what was done before) dropped it.
 */

/** The id of a stored mark or handled record; `undefined` for none. A mark of an older version (its time, a number) is its own id. */
export function compactionRequestId(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  // Anything else some writer left there still asks for a compaction, once: it is its own id, its keys
  // sorted, as PostgreSQL's jsonb gives an object back with its keys reordered (by length, then bytes), and
  // an id that followed the order never equalled the handled one: a compaction on every call.
  try {
    return JSON.stringify(value, sortedKeys) ?? 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** A `JSON.stringify` replacer that writes every object's keys in sorted order. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]]),
  );
}

/** The id of the pending request: the mark's, unless the handled record already holds it. */
export function pendingCompactionRequest(mark: unknown, handled: unknown): string | undefined {
  const id = compactionRequestId(mark);
  return id !== undefined && id !== compactionRequestId(handled) ? id : undefined;
}
