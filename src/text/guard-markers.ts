/**
 * The guard's own markers and section headings as a model reads them: `[context_guard summary]`, `[context_guard
 * pinned]`, the budget line's `[context budget]`, and the headings of the sections it appends to a summary, also in
 * look-alike forms (full-width, hyphenated, other brackets, invisible characters, a heading in bold, numbered, quoted
 * or listed; reviews 51 and 52). Letters of other scripts that look alike (a Cyrillic `а`) are not folded. One reading
 * for the summary's quoting (summary/quoted-guard-markers.ts) and the facts' filter (memory/durable-facts.ts).
 */

/** Characters a model does not see: zero-width spaces and joiners, the word joiner, the byte-order mark, soft hyphens. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/** A marker: an opening bracket of any kind, then the guard's name or the budget line's. */
const MARKER = /[[(【〔<{][ \t]*(?:quoted[ \t]+)?context[ \t_-]*(?:guard|budget)/i;

/** What may stand before a heading's words: Markdown heading, bold, list, number and quote marks. */
const HEADING_LEAD = /^[\s>#*_.\d)(-]*/;
/** The headings of what the guard writes beside a summary: the one source of their words, here and where written. */
export const GUARD_HEADINGS = {
  facts: 'Durable facts (kept verbatim, oldest first)',
  listed: "Listed by the summarizer (its picks, not the user's words)",
  awaited: "Calls made before this summary, still awaiting the application's answer",
  pinned: 'Pinned context (always kept verbatim)',
} as const;

const HEADINGS = Object.values(GUARD_HEADINGS).map((heading) => heading.toLowerCase());
/** A heading's name: its words before the first parenthesis or comma ("durable facts"). */
const NAMES = HEADINGS.map((heading) => heading.split(/[(,]/)[0]!.trim());

/** The text as the model sees it: full-width forms folded (NFKC), invisible characters left out. */
function visibleText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/** Whether a text holds one of the guard's markers, quoted or not. */
export function holdsGuardMarker(text: string): boolean {
  return MARKER.test(visibleText(text));
}

/**
 * Whether a line reads as one of the guard's markers or section headings: a heading's name behind heading or bold
 * marks, or ending in a colon, or the whole heading ("- Pinned context is a word a user may use." is not).
 */
export function readsAsGuardText(line: string): boolean {
  const visible = visibleText(line);
  if (MARKER.test(visible)) return true;
  const lead = HEADING_LEAD.exec(visible)?.[0] ?? '';
  const rest = visible.slice(lead.length).trimEnd().toLowerCase();
  if (!NAMES.some((name) => rest.startsWith(name) && !/\p{L}/u.test(rest.charAt(name.length)))) return false;
  return /[#*_]/.test(lead) || rest.endsWith(':') || HEADINGS.some((heading) => rest.startsWith(heading));
}
