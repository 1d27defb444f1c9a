/**
 * The contents the guard sent, as it sent them: a shallow look kept so a retry of a rejected call
 * (adk/hooks/retry-rejected.ts) can tell a content that a later plugin or the agent's own callback
 * edited in place (a part pushed into the budget line, a part replaced, a text appended) from one
 * left alone. Comparing the content objects alone misses those edits, and the retry would rebuild
 * the content without them. The look covers the first `LEAD` and the last `TAIL` contents, where the
 * guard puts what it makes for the request (the summary and what it keeps first, the budget line
 * last) and where plugins add: a fixed cost a call, however long the history (a look at every
 * content cost a sixth of the guard's time per call on a long masked history). References only,
 * never copies of text; checked once, on a rejection. Pure.
 */
import type { Content, Part } from '@google/genai';

/** Contents looked at from the start and from the end of the request. */
const LEAD = 3;
const TAIL = 4;

/** One content as sent: its role, its parts list, and each part with its text. */
interface SentContent {
  readonly content: Content;
  readonly role: string | undefined;
  readonly list: Part[] | undefined;
  readonly parts: readonly Part[];
  readonly texts: readonly (string | undefined)[];
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
    const parts = content.parts ? [...content.parts] : [];
    looked.push({ content, role: content.role, list: content.parts, parts, texts: parts.map((part) => part.text) });
  }
  return { looked };
}

/** Whether a content `sent` looked at was edited in place since: its role, parts list, a part or a part's text. */
export function editedInPlace(sent: SentContents): boolean {
  return sent.looked.some(({ content, role, list, parts, texts }) => {
    if (content.role !== role || content.parts !== list) return true;
    const now = content.parts ?? [];
    return now.length !== parts.length || now.some((part, j) => part !== parts[j] || part.text !== texts[j]);
  });
}
