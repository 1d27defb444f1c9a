/**
 * The fixed part of one guarded call's request (system instruction, tool declarations), estimated once.
 * The recall tool's check and the reading of the request both need it, and the guard may declare a tool
 * between them (ADK's `processLlmRequest` pushes the declaration into a tool already listed, in place). The
 * estimate is kept while the request holds the same instruction and the same tool and declaration objects,
 * as many as before (estimate/fixed-part-key.ts); anything else is taken from the session's earlier calls
 * when their instruction and tools held the same values (estimate/fixed-part-memo.ts), else estimated again.
 * One instance per call: ADK builds new declaration objects on every step, and between two calls a callback
 * may edit one in place.
 */
import type { LlmRequest } from '@google/adk';
import { estimateFixedTokens, type FixedTokens, type TokenMemo } from '../../estimate/estimate-request.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import { fixedPartKey, sameFixedPartKey } from '../../estimate/fixed-part-key.js';
import type { FixedPartMemo } from '../../estimate/fixed-part-memo.js';

/** The session and agent's estimates of earlier calls (estimate/fixed-part-memo.ts), and the key of that scope. */
interface KeptFixedParts {
  readonly memo: FixedPartMemo;
  readonly scope: string;
}

export class CallFixedPart {
  private key: readonly unknown[] | undefined;
  private fixed: FixedTokens | undefined;

  constructor(
    private readonly request: LlmRequest,
    private readonly tokenizer: Tokenizer,
    private readonly memo: TokenMemo,
    private readonly kept?: KeptFixedParts,
  ) {}

  /** The fixed part's estimate as the request stands now. */
  now(): FixedTokens {
    const { systemInstruction, tools } = this.request.config ?? {};
    const key = fixedPartKey(systemInstruction, tools);
    if (this.fixed !== undefined && this.key !== undefined && sameFixedPartKey(this.key, key)) return this.fixed;
    const estimate = () => estimateFixedTokens(systemInstruction, tools, this.tokenizer, this.memo);
    this.fixed = this.kept ? this.kept.memo.estimate(this.kept.scope, systemInstruction, tools, estimate) : estimate();
    this.key = key;
    return this.fixed;
  }
}
