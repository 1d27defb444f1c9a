/**
 * The keys a placeholder's bounded walks read of an object: its `max` smallest own keys, sorted. Every
 * key is looked at, so that a store that gives an object back with its keys in another order
 * (PostgreSQL's jsonb: by length, then bytes) makes the same placeholder, byte for byte, as the
 * provider's cache needs: the first `max` keys in stored order are other keys after such a reload (a
 * result of 40 `field_NNN_id` keys stated other identifiers on each replica). A placeholder is built once
 * per result and process, so reading all of a 90,000-key object's keys is paid once.
 */
export function boundedSortedKeys(object: object, max: number): string[] {
  const kept: string[] = [];
  if (max <= 0) return kept;
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    if (kept.length === max && key >= (kept[max - 1] as string)) continue;
    kept.splice(insertionPoint(kept, key), 0, key);
    if (kept.length > max) kept.pop();
  }
  return kept;
}

/** Where `key` goes in the sorted `keys` (after any equal one). */
function insertionPoint(keys: readonly string[], key: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((keys[middle] as string) <= key) low = middle + 1;
    else high = middle;
  }
  return low;
}
