/**
 * The contents the guard sent, as it sent them: a shallow look kept so a retry of a rejected call
 * (adk/hooks/retry-rejected.ts) can tell a content that a later plugin or the agent's own callback
 * edited in place (a part pushed into the budget line, a part replaced, a text appended) from one
 * left alone, and so the pair of the call's real count (adk/hooks/left-requests.ts) counts such an
 * edit. Comparing the content objects alone misses those edits. The look covers the first `LEAD` and
 * the last `TAIL` contents, where the guard puts what it makes for the request (the summary and what
 * it keeps first, the budget line last) and where plugins and callbacks add and edit: a fixed cost a
 * call, however long the history (a look at every content cost a sixth of the guard's time per call
 * on a long masked history). References only, never copies of text. Pure.
 */
import type { Content, Part } from '@google/genai';
import { estimateContentTokens } from './estimate-content.js';
import { lookPart, partAsLooked, partEdited, type LookedPart } from './looked-part.js';
import type { Tokenizer } from './tokenizer.js';

/** Contents looked at from the start and from the end of the request. */
const LEAD = 3;
const TAIL = 4;

/** One content as sent: its role, its parts list, and each part as looked at (estimate/looked-part.ts). */
interface SentContent {
  readonly content: Content;
  readonly role: string | undefined;
  readonly list: Part[] | undefined;
  readonly parts: readonly LookedPart[];
}

/** The shallow look at the contents a request starts and ends with. */
export interface SentContents {
  readonly looked: readonly SentContent[];
}

/** The shallow look at `contents` now (their first and last few). */
export function sentContents(contents: readonly Content[]): SentContents {
  const count = contents.length;
  const looked: SentContent[] = [];
  for (let i = 0; i < count; i++) {
    if (i === LEAD && count - TAIL > i) i = count - TAIL;
    const content = contents[i]!;
    const parts = (content.parts ?? []).map(lookPart);
    looked.push({ content, role: content.role, list: content.parts, parts });
  }
  return { looked };
}

/**
 * Whether `look`'s content was edited in place since: its role, parts list, a part or its text; with `deep`, a
 * tool call's or result's object, payload or payload fields too (estimate/looked-part.ts).
 */
function edited({ content, role, list, parts }: SentContent, deep: boolean): boolean {
  if (content.role !== role || content.parts !== list) return true;
  const now = content.parts ?? [];
  return now.length !== parts.length || now.some((part, j) => partEdited(parts[j]!, part, deep));
}

/**
 * Whether a content `sent` looked at was edited in a way a retry cannot keep: its role, parts list, a part or a
 * text (a retry sends the same part objects, so an edit inside one travels with it).
 */
export function editedInPlace(sent: SentContents): boolean {
  return sent.looked.some((look) => edited(look, false));
}

/** The content as it was looked at: its role, parts list and parts then (deeper values as they are now). */
function asLooked({ role, parts }: SentContent): Content {
  const then = parts.map(partAsLooked);
  return role === undefined ? { parts: then } : { role, parts: then };
}

/**
 * Heuristic tokens the contents `sent` looked at gained by edits in place since, signed (a callback that trims
 * the newest tool result where it stands, or appends to the user's message): what comparing which content
 * objects a request holds cannot see. Estimated only for a content edited, so nothing on most calls.
 */
export function inPlaceChange(sent: SentContents, tokenizer: Tokenizer): number {
  let tokens = 0;
  for (const look of sent.looked) {
    if (edited(look, true))
      tokens += estimateContentTokens(look.content, tokenizer) - estimateContentTokens(asLooked(look), tokenizer);
  }
  return tokens;
}

/**
 * Puts the contents `sent` looked at back as they were looked at, in place: role, parts list, its parts and their
 * texts (deeper values are left as they are). For a model that edits the request it is given (a wrapper that appends
 * to the user's text): a retry sends the request as the model got it, and the model edits it again.
 */
export function restoreLooked(sent: SentContents): void {
  for (const { content, role, list, parts } of sent.looked) {
    if (content.role !== role) content.role = role;
    if (content.parts !== list) content.parts = list;
    if (!list) continue;
    list.length = parts.length;
    parts.forEach((look, j) => {
      list[j] = look.part;
      if (look.part.text !== look.text) look.part.text = look.text;
    });
  }
}
