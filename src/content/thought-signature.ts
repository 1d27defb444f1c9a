/**
 * Gemini's thought signatures (Gemini 3 and thinking 2.5 models): an opaque `thoughtSignature` on parts of the
 * model's answers (the first `functionCall` of each step above all). The API checks them against what the model
 * wrote: every function call of the turn in flight must come back with its signature, and a signature sent on a
 * part whose content changed is refused as corrupted (400 either way; the twenty-fourth outside trial: a 45 KB
 * call argument the guard cut in the turn in flight ended the turn on "Corrupted thought signature"). A part the
 * guard edits (cut to fit, a code output masked) therefore carries the signature Google documents for parts the
 * model did not write as they are sent, never the stale one, and never none.
 */
import type { Part } from '@google/genai';

/**
 * The signature Gemini's API accepts on a part it did not produce as sent: the bytes
 * `skip_thought_signature_validator` (Google's thought-signatures guide), base64-encoded as `Part.thoughtSignature`
 * is (`@google/genai`: "Encoded as base64 string"; Python's SDK encodes its bytes so on the wire).
 */
export const EDITED_PART_SIGNATURE = 'c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=';

/** `edited`, made by the guard from `original`: signed as edited when `original` carried a signature. */
export function withEditedSignature(original: Part, edited: Part): Part {
  if (edited === original || original.thoughtSignature === undefined) return edited;
  return { ...edited, thoughtSignature: EDITED_PART_SIGNATURE };
}
