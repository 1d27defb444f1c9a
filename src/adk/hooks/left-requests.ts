/**
 * The request as the guard left it, kept from its before-model hook to the after-model hook of the
 * same call. ADK runs the agent's own before-model callbacks after the plugins', on the same
 * `LlmRequest` object, and gives the plugin's before and after hooks of one model call the same
 * event actions (`llm_agent.js` `handleBeforeModelCallback` / `handleAfterModelCallback`): keyed
 * by those, the after hook measures what the agent's callbacks added (usage/agent-additions.ts).
 */
import type { Context, LlmRequest } from '@google/adk';
import { netTokens, requestShape, type RequestShape } from '../../estimate/added-tokens.js';
import type { TokenMemo } from '../../estimate/estimate-request.js';
import { editedInPlace, inPlaceChange, sentContents, type SentContents } from '../../estimate/sent-contents.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';

interface LeftRequest {
  readonly request: LlmRequest;
  readonly shape: RequestShape;
  /** The shape's contents as they were sent: a later edit in place cannot be kept by a retry. */
  readonly sent: SentContents;
}

/** What a retry reads of the request the guard left. */
export interface LeftSince {
  readonly shape: RequestShape;
  readonly added: number;
  readonly edited: boolean;
}

export class LeftRequests {
  /** Weak: a call whose after hook never runs (aborted, answered by another plugin) leaves nothing behind. */
  private readonly left = new WeakMap<object, LeftRequest>();

  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly memo: TokenMemo,
  ) {}

  /** Keeps `request` as the guard leaves it for the model; `fixedTokens`: its fixed part's estimate now. */
  remember(context: Context, request: LlmRequest, fixedTokens?: number): void {
    const { systemInstruction, tools } = request.config ?? {};
    const shape = requestShape(systemInstruction, tools, request.contents, fixedTokens);
    this.left.set(context.actions, { request, shape, sent: sentContents(shape.contents) });
  }

  /**
   * Tokens this call's request gained after the guard left it, signed (negative when the callbacks removed
   * more than they added), once; undefined when the guard did not see the call.
   */
  takeChange(context: Context, request?: LlmRequest): number | undefined {
    const left = this.left.get(context.actions);
    if (!left || (request !== undefined && request !== left.request)) return undefined;
    this.left.delete(context.actions);
    return this.changeSince(left);
  }

  /**
   * `request` as the guard left it, the tokens it gained since and whether a content the guard left was
   * edited in place since, left in place (a retry reads them before learning).
   */
  peek(context: Context, request: LlmRequest): LeftSince | undefined {
    const left = this.left.get(context.actions);
    if (!left || request !== left.request) return undefined;
    // A retry carries what was added, never a removal (usage/agent-additions.ts).
    return { shape: left.shape, added: Math.max(0, this.changeSince(left)), edited: editedInPlace(left.sent) };
  }

  /** Nothing to measure after this call's answer: a retry already recorded what was added (adk/hooks/retry-rejected.ts). */
  forget(context: Context): void {
    this.left.delete(context.actions);
  }

  /** Contents added or removed, and the first and last few edited where they stand (estimate/sent-contents.ts). */
  private changeSince(left: LeftRequest): number {
    const { systemInstruction, tools } = left.request.config ?? {};
    const now = requestShape(systemInstruction, tools, left.request.contents);
    return netTokens(left.shape, now, this.tokenizer, this.memo) + inPlaceChange(left.sent, this.tokenizer);
  }
}
