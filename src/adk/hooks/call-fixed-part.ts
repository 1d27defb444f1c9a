/**
 * The fixed part of one guarded call's request (system instruction, tool declarations), estimated once.
 * The recall tool's check and the reading of the request both need it, and the guard may declare a tool
 * between them (ADK's `processLlmRequest` pushes the declaration into a tool already listed, in place). The
 * estimate is kept while the request holds the same instruction and the same tool and declaration objects,
 * as many as before; anything else is estimated again. One instance per call, never kept across calls: ADK
 * builds new declaration objects on every step, and between two calls a callback may edit one in place.
 */
import type { LlmRequest } from '@google/adk';
import type { Tool } from '@google/genai';
import { estimateFixedTokens, type FixedTokens, type TokenMemo } from '../../estimate/estimate-request.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';

export class CallFixedPart {
  private key: readonly unknown[] | undefined;
  private fixed: FixedTokens | undefined;

  constructor(
    private readonly request: LlmRequest,
    private readonly tokenizer: Tokenizer,
    private readonly memo: TokenMemo,
  ) {}

  /** The fixed part's estimate as the request stands now. */
  now(): FixedTokens {
    const key = fixedPartKey(this.request);
    if (this.fixed !== undefined && this.key !== undefined && sameKey(this.key, key)) return this.fixed;
    const { systemInstruction, tools } = this.request.config ?? {};
    this.fixed = estimateFixedTokens(systemInstruction, tools, this.tokenizer, this.memo);
    this.key = key;
    return this.fixed;
  }
}

/**
 * What the estimate depends on, by reference: the config, the instruction (and its parts and their texts
 * when it is a content), the tool list, each tool, its declarations list, its length and each declaration.
 */
function fixedPartKey(request: LlmRequest): unknown[] {
  const config = request.config;
  const { systemInstruction, tools } = config ?? {};
  const key: unknown[] = [config, systemInstruction];
  const parts = (systemInstruction as { parts?: unknown } | undefined)?.parts;
  if (Array.isArray(parts)) {
    key.push(parts, parts.length);
    for (const part of parts as { text?: unknown }[]) key.push(part, part?.text);
  }
  const list = Array.isArray(tools) ? tools : tools === undefined ? [] : [tools];
  key.push(tools, list.length);
  for (const tool of list as Tool[]) {
    const declarations = tool?.functionDeclarations;
    key.push(tool, declarations, declarations?.length);
    if (Array.isArray(declarations)) for (const declaration of declarations) key.push(declaration);
  }
  return key;
}

function sameKey(before: readonly unknown[], now: readonly unknown[]): boolean {
  if (before.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) if (before[i] !== now[i]) return false;
  return true;
}
