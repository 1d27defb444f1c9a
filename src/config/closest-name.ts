/**
 * The valid name a misspelt one most likely meant, for "did you mean" hints:
 * a valid name the key contains (`contextWindowTokens` means `contextWindow`)
 * or one that contains the key (`enable`), else the nearest by edit distance,
 * ignoring case, when it is near enough to be a typo.
 */

/** The closest of `candidates` to `key`, or undefined when none is plausibly meant. */
export function closestName(key: string, candidates: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  if (lower.length >= 4) {
    // A valid name inside the key (`contextWindowTokens`): the longest; else the key inside a valid name (`enable`): the shortest.
    const inKey = candidates.filter((name) => lower.includes(name.toLowerCase())).sort((a, b) => b.length - a.length);
    const aroundKey = candidates
      .filter((name) => name.toLowerCase().includes(lower))
      .sort((a, b) => a.length - b.length);
    const found = inKey[0] ?? aroundKey[0];
    if (found !== undefined) return found;
  }
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of candidates) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  // Beyond about a third of the name it is another word, not a typo.
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

/** ` Did you mean 'name'?` for the closest of `candidates` to `key`, or '' when none is plausibly meant. */
export function didYouMean(key: string, candidates: readonly string[]): string {
  const closest = closestName(key, candidates);
  return closest === undefined ? '' : ` Did you mean '${closest}'?`;
}

/** Levenshtein distance (insertions, deletions, substitutions), two rows of memory. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
