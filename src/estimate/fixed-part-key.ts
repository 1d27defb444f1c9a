/**
 * What the estimate of a request's fixed part (estimate-request.ts: `estimateFixedTokens`) depends on, by
 * reference: the system instruction (and its parts and their texts when it is a content), the tool list, each
 * tool, its declarations list, its length and each declaration. Two equal keys taken at two moments of one
 * request estimate the same, edits in place included: ADK's `processLlmRequest` pushes a new declaration into
 * the tool already listed, which the tool objects alone do not show. Only the guard's own code may edit a
 * declaration's fields in place between two keys compared (a key is never kept across calls). Pure.
 */
import type { ContentUnion, Tool, ToolListUnion } from '@google/genai';

export function fixedPartKey(
  systemInstruction: ContentUnion | undefined,
  tools: ToolListUnion | Tool[] | undefined,
): unknown[] {
  const key: unknown[] = [systemInstruction];
  const parts = (systemInstruction as { parts?: unknown } | undefined)?.parts;
  if (Array.isArray(parts)) {
    key.push(parts, parts.length);
    for (const part of parts as ({ text?: unknown } | undefined)[]) key.push(part, part?.text);
  }
  const list = Array.isArray(tools) ? tools : tools === undefined ? [] : [tools];
  key.push(tools, list.length);
  for (const tool of list as (Tool | undefined)[]) {
    const declarations = tool?.functionDeclarations;
    key.push(tool, declarations, declarations?.length);
    if (Array.isArray(declarations)) for (const declaration of declarations) key.push(declaration);
  }
  return key;
}

/** Whether two keys hold the very same items, in order. */
export function sameFixedPartKey(before: readonly unknown[], now: readonly unknown[]): boolean {
  if (before.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) if (before[i] !== now[i]) return false;
  return true;
}
