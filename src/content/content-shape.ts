/**
 * Questions about the shape of request contents, answered over plain data.
 */
import type { Content } from '@google/genai';

/** ADK renders another agent's events as a user content starting with this. */
const FOREIGN_CONTEXT_PREFIX = 'For context:';

export function hasFunctionCall(content: Content | undefined): boolean {
  return content?.parts?.some((part) => part.functionCall !== undefined) ?? false;
}

export function hasFunctionResponse(content: Content | undefined): boolean {
  return content?.parts?.some((part) => part.functionResponse !== undefined) ?? false;
}

/** Visible (non-thought) text of a content, parts joined by newlines. */
export function contentText(content: Content | undefined): string {
  const texts: string[] = [];
  for (const part of content?.parts ?? []) {
    if (typeof part.text === 'string' && part.text.length > 0 && part.thought !== true) texts.push(part.text);
  }
  return texts.join('\n');
}

/** A message the user typed: role `user`, visible text, no tool result, not another agent's events. */
export function isUserRequest(content: Content | undefined): boolean {
  if (!content || content.role !== 'user' || hasFunctionResponse(content)) return false;
  // As `contentText(content)` would answer, without joining the texts of a message of 20,000 parts.
  let first: string | undefined;
  let visible = false;
  for (const part of content.parts ?? []) {
    if (typeof part.text !== 'string' || part.text.length === 0 || part.thought === true) continue;
    first ??= part.text;
    if (part.text.trim().length > 0) {
      visible = true;
      break;
    }
  }
  return visible && first !== undefined && !startsWithPrefix(first, content);
}

/** True when the visible text of `content`, which starts with `first`, starts with the foreign-context prefix. */
function startsWithPrefix(first: string, content: Content): boolean {
  if (first.length >= FOREIGN_CONTEXT_PREFIX.length) return first.startsWith(FOREIGN_CONTEXT_PREFIX);
  // The prefix may run across parts (joined by newlines, as `contentText` does): join just enough of them.
  let head = '';
  for (const part of content.parts ?? []) {
    if (typeof part.text !== 'string' || part.text.length === 0 || part.thought === true) continue;
    head = head === '' ? part.text : `${head}\n${part.text}`;
    if (head.length >= FOREIGN_CONTEXT_PREFIX.length) break;
  }
  return head.startsWith(FOREIGN_CONTEXT_PREFIX);
}

/** Index of the latest user request in `contents`, or -1. */
export function latestUserRequestIndex(contents: readonly Content[]): number {
  for (let i = contents.length - 1; i >= 0; i--) if (isUserRequest(contents[i])) return i;
  return -1;
}

/**
 * True when cutting `contents` before index `split` orphans no tool result:
 * the first kept content must not be a function response (its call would be
 * cut away). ADK places every response right after its call.
 */
export function isValidSplit(contents: readonly Content[], split: number): boolean {
  if (split <= 0 || split > contents.length) return false;
  if (split === contents.length) return !hasFunctionCall(contents[split - 1]);
  return !hasFunctionResponse(contents[split]);
}
