/**
 * Questions about the shape of request contents, answered over plain data.
 */
import type { Content } from '@google/genai';
import { renderedCodeOutput } from './code-output.js';

/** ADK renders another agent's events as a user content whose first part is this text. */
const FOREIGN_CONTEXT_PREFIX = 'For context:';

/** Whether `content` is another agent's events as ADK renders them for this agent (role `user`, first part `For context:`). */
export function isForeignContext(content: Content | undefined): boolean {
  const first = content?.parts?.[0];
  return content?.role === 'user' && first?.text === FOREIGN_CONTEXT_PREFIX && first.thought !== true;
}

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

/**
 * A message the user typed: role `user`, visible text or media (an image, a file), no tool result, not another
 * agent's events.
 * ADK renders those with a first part that is exactly `For context:` (`convertForeignEvent`, and
 * the A2A client's alike); a user's own text that merely starts with those words ("For context:
 * I use a Mac...") is still the user's request, kept verbatim through its turn's compactions.
 */
export function isUserRequest(content: Content | undefined): boolean {
  if (!content || content.role !== 'user' || hasFunctionResponse(content) || isForeignContext(content)) return false;
  // A code run's output ADK sends as a user's text ("```tool_output\n…\n```"): the model's work, not the user's.
  if (renderedCodeOutput(content) !== undefined) return false;
  // As `contentText(content)` would answer, without joining the texts of a message of 20,000 parts.
  for (const part of content.parts ?? []) {
    if (typeof part.text === 'string' && part.thought !== true && part.text.trim().length > 0) return true;
    // An image or file sent alone (a screenshot as the whole task) is the message too: else it was summarized away.
    if (part.inlineData !== undefined || part.fileData !== undefined) return true;
  }
  return false;
}

/** Index of the latest user request in `contents` before `end`, or -1. */
export function latestUserRequestIndex(contents: readonly Content[], end = contents.length): number {
  for (let i = Math.min(end, contents.length) - 1; i >= 0; i--) if (isUserRequest(contents[i])) return i;
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
