/**
 * Estimates of the parts of a request that are not contents: the system
 * instruction and the tool declarations. Both are rebuilt by ADK on every
 * step but rarely change, so their counts are cached by their text.
 */
import type { Content, ContentUnion, Tool, ToolListUnion } from '@google/genai';
import { contentFramingTokens, estimateContentTokens } from './estimate-content.js';
import { safeJson } from './json-text.js';
import type { Tokenizer } from './tokenizer.js';
import { BoundedMap } from '../collections/bounded-map.js';

/** The system instruction as ADK may set it (a string, a part, parts or a content). */
export function systemInstructionText(instruction: ContentUnion | undefined): string {
  if (instruction === undefined || instruction === null) return '';
  if (typeof instruction === 'string') return instruction;
  if (Array.isArray(instruction))
    return instruction.map((item) => systemInstructionText(item as ContentUnion)).join('\n');
  const asContent = instruction as Content;
  if (Array.isArray(asContent.parts)) return asContent.parts.map((part) => part.text ?? safeJson(part)).join('\n');
  const asPart = instruction as { text?: string };
  return typeof asPart.text === 'string' ? asPart.text : safeJson(instruction);
}

/** A small bounded memo of text → token count. */
export class TokenMemo {
  private readonly entries: BoundedMap<string, number>;
  constructor(capacity: number = 256) {
    this.entries = new BoundedMap(capacity);
  }

  count(text: string, tokenizer: Tokenizer): number {
    return this.remember(text, () => tokenizer.count(text));
  }

  /** The count stored under `key`, computed once. */
  remember(key: string, compute: () => number): number {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    const tokens = compute();
    this.entries.set(key, tokens);
    return tokens;
  }
}

/** Fixed cost of the system instruction's, and of each tool declaration's, framing. */
const FIXED_PART_OVERHEAD_TOKENS = 4;

/** Estimated tokens of the fixed part of a request, and the estimator's own framing within them. */
export interface FixedTokens {
  readonly systemTokens: number;
  readonly toolTokens: number;
  /** Of `systemTokens + toolTokens`, the estimator's framing (see calibration.ts). */
  readonly framingTokens: number;
}

/** Tokens of the system instruction and tool declarations together. */
export function estimateFixedTokens(
  systemInstruction: ContentUnion | undefined,
  tools: ToolListUnion | Tool[] | undefined,
  tokenizer: Tokenizer,
  memo: TokenMemo = new TokenMemo(),
): FixedTokens {
  const system = systemInstructionText(systemInstruction);
  const systemTokens = system.length > 0 ? memo.count(system, tokenizer) + FIXED_PART_OVERHEAD_TOKENS : 0;
  const toolList = Array.isArray(tools) ? tools : tools === undefined ? [] : [tools];
  let toolTokens = 0;
  for (const tool of toolList) toolTokens += memo.count(safeJson(tool), tokenizer) + FIXED_PART_OVERHEAD_TOKENS;
  const framed = (system.length > 0 ? 1 : 0) + toolList.length;
  return { systemTokens, toolTokens, framingTokens: framed * FIXED_PART_OVERHEAD_TOKENS };
}

/** The estimator's framing of a list of contents (see `contentFramingTokens`). */
export function contentsFramingTokens(contents: readonly Content[]): number {
  let tokens = 0;
  for (const content of contents) tokens += contentFramingTokens(content);
  return tokens;
}

/** Tokens of a whole list of contents (no caching; for small lists such as a rewritten request). */
export function estimateContentsTokens(contents: readonly Content[], tokenizer: Tokenizer): number {
  let tokens = 0;
  for (const content of contents) tokens += estimateContentTokens(content, tokenizer);
  return tokens;
}
