/**
 * The fixed part's estimate (system instruction, tool declarations) kept across the calls of one session and
 * agent. ADK builds the declarations anew on every step, so the key by reference of one call
 * (fixed-part-key.ts) never holds at the next, and estimating again costs the JSON text of every tool and the
 * hash of that text in the token memo. Kept with a copy of the instruction and the tools it was made of
 * (collections/plain-copy.ts), the estimate is taken again while the request's hold the same, compared
 * value by value: one walk, no text. A declaration edited in place, added or removed, a key reordered, is
 * another request, estimated. The estimate is a pure function of what is compared, so a kept one is the
 * estimate the request would get; what cannot be copied (a class instance, too large) is estimated each time.
 */
import { BoundedMap } from '../collections/bounded-map.js';
import { holdsCopy, plainCopyOf, UNCOPIED, type PlainCopy } from '../collections/plain-copy.js';
import type { FixedTokens } from './estimate-request.js';

/** Sessions and agents whose estimates are kept, least recently estimated dropped first. */
const MAX_SCOPES = 1_000;

/**
 * Estimates kept per session and agent: a call's request as ADK built it, then with the tools the guard declares
 * into it (the recall tool, the status tool), one step each.
 */
const KEPT_PER_SCOPE = 3;

/** Nesting and size of an instruction and tools copied (a schema nests a few levels per property). */
const MAX_DEPTH = 32;
const MAX_NODES = 20_000;

/**
 * Tool lists whose copies are shared by every scope that declares the same values, by their tokens: one process
 * serving many sessions of an agent keeps one copy of its tools, not one per session (a toolset of a few
 * hundred declarations copied for each of 1,000 sessions would hold hundreds of megabytes).
 */
const SHARED_TOOLSETS = 256;
/** Different tool lists of the same tokens kept at most. */
const PER_TOKENS = 4;

interface KeptFixedPart {
  readonly instruction: PlainCopy;
  readonly tools: PlainCopy;
  readonly fixed: FixedTokens;
}

export class FixedPartMemo {
  private readonly scopes = new BoundedMap<string, KeptFixedPart[]>(MAX_SCOPES);
  private readonly toolCopies = new BoundedMap<number, PlainCopy[]>(SHARED_TOOLSETS);
  /** Tool lists copied since creation; for tests. */
  toolListsCopied = 0;

  /** `estimate()` of `scope`'s request, or the one kept for an instruction and tools that hold the same values. */
  estimate(scope: string, instruction: unknown, tools: unknown, estimate: () => FixedTokens): FixedTokens {
    const kept = this.scopes.get(scope);
    if (kept !== undefined)
      for (const entry of kept)
        if (holdsCopy(tools, entry.tools) && holdsCopy(instruction, entry.instruction)) return entry.fixed;
    const fixed = estimate();
    const instructionCopy = plainCopyOf(instruction, 0, { maxDepth: MAX_DEPTH, nodes: MAX_NODES });
    const toolsCopy = this.toolsCopy(tools, fixed.toolTokens);
    if (instructionCopy === UNCOPIED || toolsCopy === UNCOPIED) return fixed;
    const entry = { instruction: instructionCopy, tools: toolsCopy, fixed };
    this.scopes.set(scope, [entry, ...(kept ?? [])].slice(0, KEPT_PER_SCOPE));
    return fixed;
  }

  /** A copy of `tools`: one another scope keeps of the same values, or a new one, shared from now on. */
  private toolsCopy(tools: unknown, tokens: number): PlainCopy | typeof UNCOPIED {
    const known = this.toolCopies.get(tokens) ?? [];
    for (const copy of known) if (holdsCopy(tools, copy)) return copy;
    const copy = plainCopyOf(tools, 0, { maxDepth: MAX_DEPTH, nodes: MAX_NODES });
    if (copy === UNCOPIED) return copy;
    this.toolListsCopied++;
    this.toolCopies.set(tokens, [copy, ...known].slice(0, PER_TOKENS));
    return copy;
  }
}
