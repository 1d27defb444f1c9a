/**
 * How much a request grew between two looks at it: the guard's own (at the end of its
 * before-model hook) and the one after the model call, once the agent's callbacks have run on the
 * same request object. Pure over plain data; O(changed contents): contents still the same objects
 * are skipped, so a callback that appends costs only what it appended.
 */
import type { Content, ContentUnion, Tool, ToolListUnion } from '@google/genai';
import { estimateContentTokens } from './estimate-content.js';
import { estimateFixedTokens, systemInstructionText, type TokenMemo } from './estimate-request.js';
import type { Tokenizer } from './tokenizer.js';
import { fixedPartKey, sameFixedPartKey } from './fixed-part-key.js';

/** A request at one moment: copies of its lists (a callback may push to the request's own). */
export interface RequestShape {
  readonly systemText: string;
  readonly tools: readonly Tool[];
  readonly contents: readonly Content[];
  /** What the fixed part's estimate depends on (fixed-part-key.ts), as it was then. */
  readonly fixedKey: readonly unknown[];
  /** Heuristic tokens of the system instruction and tools then, when the caller had them. */
  readonly fixedTokens?: number | undefined;
}

/**
 * The shape of a request now, its lists copied so later edits in place do not reach it. `fixedTokens`: the
 * fixed part's estimate now; without it, a declaration pushed in place into a listed tool later (as ADK's
 * `processLlmRequest` adds one) reaches the shape's tools too, and is not counted as added.
 */
export function requestShape(
  systemInstruction: ContentUnion | undefined,
  tools: ToolListUnion | Tool[] | undefined,
  contents: readonly Content[] | undefined,
  fixedTokens?: number,
): RequestShape {
  const toolList = Array.isArray(tools) ? tools : tools === undefined ? [] : [tools];
  return {
    systemText: systemInstructionText(systemInstruction),
    tools: [...(toolList as Tool[])],
    contents: [...(contents ?? [])],
    fixedKey: fixedPartKey(systemInstruction, tools),
    fixedTokens,
  };
}

/**
 * Heuristic tokens `after` holds beyond `before`, signed: negative when the callbacks removed more than
 * they added. The caller carries only an addition (usage/agent-additions.ts); the signed figure is the
 * request actually sent, which the provider's count is paired with.
 */
export function netTokens(before: RequestShape, after: RequestShape, tokenizer: Tokenizer, memo: TokenMemo): number {
  // The same text, tool and declaration objects estimate the same: no serialisation of the tools twice a call.
  const fixed = sameFixed(before, after)
    ? 0
    : fixedOf(after, tokenizer, memo) - (before.fixedTokens ?? fixedOf(before, tokenizer, memo));
  return fixed + netContents(before.contents, after.contents, tokenizer);
}

/** Whether both shapes hold the same system text and the very same tool and declaration objects, in order. */
function sameFixed(before: RequestShape, after: RequestShape): boolean {
  return before.systemText === after.systemText && sameFixedPartKey(before.fixedKey, after.fixedKey);
}

function fixedOf(shape: RequestShape, tokenizer: Tokenizer, memo: TokenMemo): number {
  const fixed = estimateFixedTokens(shape.systemText, shape.tools as Tool[], tokenizer, memo);
  return fixed.systemTokens + fixed.toolTokens;
}

/** Whether both lists hold the very same objects, in order. */
function sameItems<T>(before: readonly T[], after: readonly T[]): boolean {
  if (before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) return false;
  return true;
}

/**
 * Tokens of contents only `after` has, less those only `before` had (a rewritten copy nets out), counted as often
 * as each appears: a content a callback pushes a second time is sent twice.
 */
function netContents(before: readonly Content[], after: readonly Content[], tokenizer: Tokenizer): number {
  if (sameItems(before, after)) return 0;
  const unmatched = new Map<Content, number>();
  for (const content of before) unmatched.set(content, (unmatched.get(content) ?? 0) + 1);
  let tokens = 0;
  for (const content of after) {
    const left = unmatched.get(content) ?? 0;
    if (left > 0) unmatched.set(content, left - 1);
    else tokens += estimateContentTokens(content, tokenizer);
  }
  for (const [content, left] of unmatched) if (left > 0) tokens -= left * estimateContentTokens(content, tokenizer);
  return tokens;
}
