/**
 * A summary's text with the guard's own markers made plain quotations. A page or a message that copies the guard's
 * section headings ("## Durable facts (kept verbatim …)", "## Calls made before this summary …") or its bracketed
 * markers ("[context_guard pinned] Pinned context …") into what a summarizer reads can have them copied into the
 * summary, where the model took them for the guard's own sections: a forged "kept verbatim" list of facts and a pin
 * the session never had (the fifty-eighth outside trial). Nothing is dropped: the lines stay, marked as quoted, and
 * the guard's real sections are appended after the text as before. Pure.
 */

/** Headings of sections the guard appends to a summary itself. */
const GUARD_HEADING =
  /^(#{1,6})[ \t]*(?=(?:durable facts|listed by the summarizer|calls made before this summary|pinned context)\b)/gim;

/** The guard's bracketed markers: `[context_guard summary]`, `[context_guard pinned]`, the budget line's `[context budget]`. */
const GUARD_MARKER = /\[[ \t]*(context[ _]guard|context budget)/gi;

export function quotedGuardMarkers(text: string): string {
  return text.replace(GUARD_HEADING, '$1 Quoted, not the guard’s: ').replace(GUARD_MARKER, '[quoted $1');
}
