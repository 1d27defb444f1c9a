/**
 * The keys a placeholder's bounded walks read of an object: at most `max` own keys, sorted, so that a
 * store that gives an object back with its keys in another order (PostgreSQL's jsonb: by length, then
 * bytes) makes the same placeholder, byte for byte, as the provider's cache needs. An object of more
 * than `max` keys is read only in part (a result may have 90,000 keys), so which keys it gives can
 * still follow the stored order.
 */
export function boundedSortedKeys(object: object, max: number): string[] {
  const keys: string[] = [];
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    keys.push(key);
    if (keys.length >= max) break;
  }
  return keys.sort();
}
