/**
 * The key that tells the same durable fact again (memory/durable-facts.ts): its text without list markers, a
 * speaker's label, case, runs of spaces and a final stop.
 */
import { LIST_MARKERS } from './fact-sentences.js';

/**
 * The speaker's label of a transcript line ("[user]: ", "User: "): a summarizer that copies the user's line from the
 * transcript it was shown lists it with the label, and without this the copy was a second fact under the summarizer's
 * heading beside the user's own (the fifty-ninth trial).
 */
const USER_LABEL = /^\[?user\]?:\s*/i;

/** Normalised key used to recognise the same fact again. */
export function factKey(text: string): string {
  return text
    .replace(LIST_MARKERS, '')
    .replace(USER_LABEL, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.;,!]+$/, '')
    .trim();
}
