/**
 * The guard's bracketed markers as a model reads them: `[context_guard summary]`, `[context_guard pinned]`, the budget
 * line's `[context budget]`, also in look-alike forms (full-width, hyphenated, with invisible characters; review 51).
 * One pattern for the summary's quoting (summary/quoted-guard-markers.ts) and the facts' filter (memory/durable-facts.ts).
 */

/** Characters a model does not see: zero-width spaces and joiners, the word joiner, the byte-order mark, soft hyphens. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/** A marker not yet quoted (`[quoted context_guard …]` is one the guard quoted). */
const MARKER = /\[[ \t]*(context[ \t_-]*guard|context[ \t_-]*budget)/gi;
/** A marker, quoted or not. */
const ANY_MARKER = /\[[ \t]*(?:quoted[ \t]+)?context[ \t_-]*(?:guard|budget)/i;

/** The text as the model sees it: full-width forms folded (NFKC), invisible characters left out. */
export function visibleText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/** Whether a text holds one of the guard's markers, quoted or not. */
export function holdsGuardMarker(text: string): boolean {
  return ANY_MARKER.test(visibleText(text));
}

/** `visible` (a `visibleText`) with each of the guard's markers quoted: `[quoted context_guard pinned]`. */
export function quotedMarkers(visible: string): string {
  return visible.replace(MARKER, '[quoted $1');
}
