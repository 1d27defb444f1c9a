/**
 * A summary's text with the guard's own markers made plain quotations. A page or a message that copies the guard's
 * section headings ("## Durable facts (kept verbatim …)", "## Calls made before this summary …") or its bracketed
 * markers ("[context_guard pinned] Pinned context …") into what a summarizer reads can have them copied into the
 * summary, where the model took them for the guard's own sections: a forged "kept verbatim" list of facts and a pin
 * the session never had (the fifty-eighth outside trial). Nothing is dropped: the lines stay, marked as quoted, and
 * the guard's real sections are appended after the text as before. A line is read as the model would see it
 * (text/guard-markers.ts), a heading indented or in bold too (review 51). Pure.
 */
import { holdsGuardMarker, quotedMarkers, visibleText } from '../text/guard-markers.js';

/** A heading (Markdown, indented up to three spaces, or a bold line) of a section the guard appends itself. */
const GUARD_HEADING =
  /^([ \t]{0,3}(?:#{1,6}|\*\*|__)[ \t]*)(?=(?:durable facts|listed by the summarizer|calls made before this summary|pinned context)\b)/i;

export function quotedGuardMarkers(text: string): string {
  return text.split('\n').map(quotedLine).join('\n');
}

function quotedLine(line: string): string {
  const seen = visibleText(line);
  if (!GUARD_HEADING.test(seen) && !holdsGuardMarker(seen)) return line;
  return quotedMarkers(seen.replace(GUARD_HEADING, '$1Quoted, not the guard’s: '));
}
