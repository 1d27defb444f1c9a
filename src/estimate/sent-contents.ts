/**
 * The contents the guard sent, as it sent them: a shallow look kept so a retry of a rejected call
 * (adk/hooks/retry-rejected.ts) can tell a content that a later plugin or the agent's own callback
 * edited in place (a part pushed into the budget line, a part replaced, a text appended) from one
 * left alone. Comparing the content objects alone misses those edits, and the retry would rebuild
 * the content without them. References only, never copies of text: taking it costs a few array
 * pushes per part, checking it one pass, and only on a rejection. Pure.
 */
import type { Content, Part } from '@google/genai';

/** Each content's role and parts list, and every part with its text, flat and in order. */
export interface SentContents {
  readonly contents: readonly Content[];
  readonly roles: readonly (string | undefined)[];
  readonly lists: readonly (Part[] | undefined)[];
  /** Where each content's parts end in `parts`. */
  readonly ends: readonly number[];
  readonly parts: readonly Part[];
  readonly texts: readonly (string | undefined)[];
}

/** The shallow look at `contents` now; `contents` itself is kept, so pass a copy the caller owns. */
export function sentContents(contents: readonly Content[]): SentContents {
  const roles: (string | undefined)[] = [];
  const lists: (Part[] | undefined)[] = [];
  const ends: number[] = [];
  const parts: Part[] = [];
  const texts: (string | undefined)[] = [];
  for (const content of contents) {
    roles.push(content.role);
    lists.push(content.parts);
    for (const part of content.parts ?? []) {
      parts.push(part);
      texts.push(part.text);
    }
    ends.push(parts.length);
  }
  return { contents, roles, lists, ends, parts, texts };
}

/** Whether a content of `sent` was edited in place since: its role, parts list, a part or a part's text. */
export function editedInPlace(sent: SentContents): boolean {
  let start = 0;
  for (let i = 0; i < sent.contents.length; i++) {
    const content = sent.contents[i]!;
    const end = sent.ends[i]!;
    if (content.role !== sent.roles[i] || content.parts !== sent.lists[i]) return true;
    const list = content.parts ?? [];
    if (list.length !== end - start) return true;
    for (let j = 0; j < list.length; j++)
      if (list[j] !== sent.parts[start + j] || list[j]!.text !== sent.texts[start + j]) return true;
    start = end;
  }
  return false;
}
