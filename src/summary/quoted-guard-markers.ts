/**
 * A summary's text with the lines that read as the guard's own marked as quotations. A page or a message that copies
 * the guard's section headings ("## Durable facts (kept verbatim …)", "## Calls made before this summary …") or its
 * bracketed markers ("[context_guard pinned] Pinned context …") into what a summarizer reads can have them copied
 * into the summary, where the model took them for the guard's own sections: a forged "kept verbatim" list of facts
 * and a pin the session never had (the fifty-eighth outside trial). Such a line is kept as it was, character for
 * character, behind `QUOTED_LINE` (review 52: folding the line lost a ZWJ, a ZWNJ and superscripts), which also
 * makes a heading plain text; the guard's real sections are appended after the text as before. Pure.
 */
import { readsAsGuardText } from '../text/guard-markers.js';

/** What stands before a line of a summary that reads as the guard's own. */
export const QUOTED_LINE = '[quoted, not the guard’s] ';

export function quotedGuardMarkers(text: string): string {
  return text
    .split('\n')
    .map((line) => (!line.startsWith(QUOTED_LINE) && readsAsGuardText(line) ? QUOTED_LINE + line : line))
    .join('\n');
}
