/**
 * Puts text in front of a request's system instruction, whatever form it has.
 *
 * ADK builds `config.systemInstruction` as a string, but another plugin or a
 * hand-built request may leave it undefined or use any `ContentUnion` form
 * (a `Content`, a part, or a list of parts); each keeps its form. Same
 * handling as ADK's `GlobalInstructionPlugin`, except that a `Content` gets
 * the text as its first part instead of becoming an invalid mixed list.
 */
import type { Content, ContentUnion, PartUnion } from '@google/genai';

/** Separator between the prepended text and what was there, as ADK joins instructions. */
const SEPARATOR = '\n\n';

/**
 * `text` followed by `existing`. Returns `existing` itself when `text` is empty,
 * and a new value otherwise (the input is not mutated).
 */
export function prependSystemInstruction(existing: ContentUnion | undefined, text: string): ContentUnion | undefined {
  if (text.length === 0) return existing;
  if (existing === undefined || existing === null || existing === '') return text;
  if (typeof existing === 'string') return `${text}${SEPARATOR}${existing}`;
  if (Array.isArray(existing)) return existing.length === 0 ? text : [text, ...existing];
  if (isContent(existing)) return { ...existing, parts: [{ text }, ...(existing.parts ?? [])] };
  const part: PartUnion = existing;
  return [text, part];
}

function isContent(value: ContentUnion): value is Content {
  return typeof value === 'object' && value !== null && ('parts' in value || 'role' in value);
}
