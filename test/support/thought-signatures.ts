/**
 * A scripted model's side of Gemini 3's thought signatures: it signs the first function call of each step it
 * answers with, remembers what it signed, and checks each request as the API does. In the turn in flight (after
 * the latest user content that is not a function response) a call it signed must come back signed, and a part
 * sent with its own signature must be the part it signed; the documented signature of an edited part
 * (`EDITED_PART_SIGNATURE`) is accepted on any part. Older turns are not checked, as the API does not.
 */
import type { Content, Part } from '@google/genai';
import { EDITED_PART_SIGNATURE } from '../../src/content/thought-signature.js';

/** A call's identity across edits: its name and the `path` or `step` it was made with. */
const callKey = (part: Part): string | undefined =>
  part.functionCall &&
  `${part.functionCall.name}:${JSON.stringify(part.functionCall.args?.['path'] ?? part.functionCall.args?.['step'] ?? '')}`;

const contentOf = (part: Part): string => JSON.stringify({ ...part, thoughtSignature: undefined });

/** A user content that starts a turn: not a function response. */
const isUserText = (content: Content | undefined): boolean =>
  content?.role === 'user' && !(content.parts ?? []).some((part) => part.functionResponse);

const rejection = (message: string): Error =>
  new Error(JSON.stringify({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }));

export class ThoughtSignatures {
  /** What each signature was issued on, and the signature of each call it signed. */
  private readonly issued = new Map<string, string>();
  private readonly callSignatures = new Map<string, string>();
  /** Parts of the turn in flight that came back with the edited-part signature. */
  editedSeen = 0;

  /** `parts` of one step, its first function call signed. */
  sign(parts: Part[]): Part[] {
    const first = parts.findIndex((part) => part.functionCall);
    return parts.map((part, i) => {
      if (i !== first) return part;
      const signature = `sig-${this.issued.size + 1}`;
      this.issued.set(signature, contentOf(part));
      const key = callKey(part);
      if (key) this.callSignatures.set(key, signature);
      return { ...part, thoughtSignature: signature };
    });
  }

  /** The 400 Gemini 3 answers `contents` with, or `undefined` when it accepts them. */
  check(contents: readonly Content[]): Error | undefined {
    let start = contents.length - 1;
    while (start >= 0 && !isUserText(contents[start])) start--;
    for (const content of contents.slice(start + 1)) {
      if (content.role !== 'model') continue;
      for (const part of content.parts ?? []) {
        const error = this.checkPart(part);
        if (error) return error;
      }
    }
    return undefined;
  }

  private checkPart(part: Part): Error | undefined {
    const signature = part.thoughtSignature;
    if (signature === EDITED_PART_SIGNATURE) {
      this.editedSeen++;
      return undefined;
    }
    if (signature !== undefined && this.issued.get(signature) !== contentOf(part))
      return rejection('Corrupted thought signature.');
    const key = callKey(part);
    if (key && this.callSignatures.has(key) && signature === undefined)
      return rejection('Function call is missing a thought_signature in functionCall parts.');
    return undefined;
  }
}
