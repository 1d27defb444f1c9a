/**
 * The request as the guard left it, kept from its before-model hook to the after-model hook of the
 * same call. ADK runs the agent's own before-model callbacks after the plugins', on the same
 * `LlmRequest` object, and gives the plugin's before and after hooks of one model call the same
 * event actions (`llm_agent.js` `handleBeforeModelCallback` / `handleAfterModelCallback`): keyed
 * by those, the after hook measures what the agent's callbacks added (usage/agent-additions.ts).
 */
import type { Context, LlmRequest } from '@google/adk';
import { addedTokens, requestShape, type RequestShape } from '../../estimate/added-tokens.js';
import type { TokenMemo } from '../../estimate/estimate-request.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';

interface LeftRequest {
  readonly request: LlmRequest;
  readonly shape: RequestShape;
}

export class LeftRequests {
  /** Weak: a call whose after hook never runs (aborted, answered by another plugin) leaves nothing behind. */
  private readonly left = new WeakMap<object, LeftRequest>();

  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly memo: TokenMemo,
  ) {}

  /** Keeps `request` as the guard leaves it for the model. */
  remember(context: Context, request: LlmRequest): void {
    const { systemInstruction, tools } = request.config ?? {};
    this.left.set(context.actions, { request, shape: requestShape(systemInstruction, tools, request.contents) });
  }

  /** Tokens this call's request gained after the guard left it, once; undefined when the guard did not see the call. */
  takeAdded(context: Context, request?: LlmRequest): number | undefined {
    const left = this.left.get(context.actions);
    if (!left || (request !== undefined && request !== left.request)) return undefined;
    this.left.delete(context.actions);
    return this.addedSince(left);
  }

  /** `request` as the guard left it and the tokens it gained since, left in place (a retry reads them before learning). */
  peek(context: Context, request: LlmRequest): { readonly shape: RequestShape; readonly added: number } | undefined {
    const left = this.left.get(context.actions);
    if (!left || request !== left.request) return undefined;
    return { shape: left.shape, added: this.addedSince(left) };
  }

  /** Nothing to measure after this call's answer: a retry already recorded what was added (adk/hooks/retry-rejected.ts). */
  forget(context: Context): void {
    this.left.delete(context.actions);
  }

  private addedSince(left: LeftRequest): number {
    const { systemInstruction, tools } = left.request.config ?? {};
    const now = requestShape(systemInstruction, tools, left.request.contents);
    return addedTokens(left.shape, now, this.tokenizer, this.memo);
  }
}
