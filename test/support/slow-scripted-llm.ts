/**
 * For a `ParallelAgent` whose branches must finish in another order than they start (the database then
 * returns their events in start order): a scripted model that answers after a delay, and the turn a
 * request belongs to.
 */
import type { LlmRequest, LlmResponse } from '@google/adk';
import type { Content } from '@google/genai';
import { ScriptedLlm, ratioTokenCounter, type ModelScript } from '../../src/testing/index.js';

/** A scripted model that answers after `delayMs`: the branch that starts first can finish last. */
export class SlowScriptedLlm extends ScriptedLlm {
  constructor(
    private readonly delayMs: number,
    script: ModelScript,
  ) {
    super({ window: 1_000_000, countTokens: ratioTokenCounter(1), script, minCachedTokens: false });
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    yield* super.generateContentAsync(request);
  }
}

/** The latest "Turn N:" a request's contents mention (0 when none). */
export function turnOf(request: { readonly contents?: readonly Content[] | undefined }): number {
  const text = JSON.stringify(request.contents);
  return Math.max(0, ...[...text.matchAll(/Turn (\d+):/g)].map((match) => Number(match[1])));
}
