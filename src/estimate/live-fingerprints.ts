/**
 * Fingerprints of the live contents, for validating a stored watermark (state/watermark.ts). A content
 * still equal, exactly, to the measure cache's own copy at its position (estimate/kept-content.ts) has the
 * fingerprint measured from that copy: the check is a visit per node, where hashing a tool result again
 * read its whole JSON text on every call (the mask's anchor sits on old results). Any other content is
 * fingerprinted afresh. A position the measure cache took on its probe this call (`probedBefore`: nothing
 * before the guard could edit, and the session's events only grew, in order) has the fingerprint it had:
 * ADK built it from the same event, and a reordered reload is seen by the events' order, not by contents.
 */
import type { Content } from '@google/genai';
import { fingerprint } from './fingerprint.js';
import { sameAsKept } from './kept-content.js';

/** What the measure cache saw at each position: its copy of the content and the fingerprint of it. */
interface MeasuredCopies {
  readonly kept: readonly unknown[];
  readonly fingerprints: readonly string[];
  readonly probedBefore?: number | undefined;
}

export function liveFingerprints(
  contents: readonly Content[],
  measured: MeasuredCopies,
): (index: number) => string | undefined {
  // Within one call a position is read by each stored watermark that looks there (summary, mask, a shared summary).
  const seen = new Map<number, string>();
  return (index) => {
    const content = contents[index];
    if (!content) return undefined;
    const done = seen.get(index);
    if (done !== undefined) return done;
    const kept = measured.kept[index];
    const known = measured.fingerprints[index];
    const taken = known !== undefined && index < (measured.probedBefore ?? 0);
    const print =
      taken || (kept !== undefined && known !== undefined && sameAsKept(kept, content)) ? known : fingerprint(content);
    seen.set(index, print);
    return print;
  };
}
