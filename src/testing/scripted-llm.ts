/**
 * A scripted `BaseLlm` that is strict like a real provider.
 *
 * It computes the real prompt size of every request it receives (with a
 * ground-truth counter), rejects one over its window with the same 400 error
 * Gemini returns (the message states the real count), reports
 * `usageMetadata` or withholds it, and records every request so tests assert
 * what was actually sent. Responses come from a script function, fresh objects
 * every call (ADK assigns function-call ids in place).
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import type { Content } from '@google/genai';
import type { RequestTokenCounter } from './ground-truth.js';
import {
  cachedPrefixTokens,
  DEFAULT_MIN_CACHED_TOKENS,
  snapshotRequest,
  type PrefixSnapshot,
} from './cached-prefix.js';

/** One request as the model received it. */
export interface RecordedRequest {
  readonly index: number;
  /** Epoch milliseconds when the request arrived (orders requests across several models). */
  readonly timestamp: number;
  /** Real prompt tokens by the ground truth. */
  readonly promptTokens: number;
  readonly rejected: boolean;
  /** Prompt tokens served from the implicit cache (reported as `cachedContentTokenCount` when over 0). */
  readonly cachedPromptTokens: number;
  /** Deep copy of the contents sent. */
  readonly contents: Content[];
  readonly systemInstruction: string | undefined;
  readonly agentName: string | undefined;
}

/** What the script sees for one call. */
export interface ScriptCall {
  readonly request: LlmRequest;
  readonly index: number;
  readonly promptTokens: number;
}

/** The script: the response content (and optional fields) for a call. */
export type ModelScript = (call: ScriptCall) => Partial<LlmResponse> & { content: Content };

export interface ScriptedLlmOptions {
  readonly model?: string;
  /** Requests whose ground-truth size exceeds this are rejected with a 400 error. */
  readonly window: number;
  readonly countTokens: RequestTokenCounter;
  readonly script: ModelScript;
  /** Report `usageMetadata.promptTokenCount` (a function can switch it per call). @default true */
  readonly reportUsage?: boolean | ((index: number) => boolean);
  /**
   * Output tokens to report: a number, or worked out from the call and the content it answers
   * (a summary's length, so the usage reported is the output billed). @default 50
   */
  readonly outputTokens?: number | ((call: ScriptCall, content: Content) => number);
  /** An error to throw for a call instead of answering (a 503, a timeout...), checked after the size check. */
  readonly fail?: (call: ScriptCall) => Error | undefined;
  /**
   * What is thrown for a request over `window`, as another provider's adapter throws it (any value).
   * @default promptTooLongError, Gemini's
   */
  readonly rejection?: ((promptTokens: number, window: number) => unknown) | undefined;
  /**
   * Smallest common prefix with the previous accepted request of the same
   * agent (and `cacheKey`) that is reported as `cachedContentTokenCount`;
   * `false` turns the cache off. @default 2,048 (Gemini 2.5's minimum)
   */
  readonly minCachedTokens?: number | false;
  /** Which requests share a cache besides the agent name (say, a session id); @default one cache per agent */
  readonly cacheKey?: (request: LlmRequest) => string;
  /**
   * Whether an accepted request becomes the prefix the next one is compared with. A side request that
   * reads the agent's cache (a summary continuing the agent's request) should not: a provider keeps
   * the agent's own prefix cached too. @default every request
   */
  readonly cachesPrefix?: (request: LlmRequest) => boolean;
}

/** The error a Gemini backend raises for an oversized request, as `@google/genai` throws it. */
export function promptTooLongError(promptTokens: number, window: number): Error {
  return new Error(
    JSON.stringify({
      error: {
        code: 400,
        message: `The input token count (${promptTokens}) exceeds the maximum number of tokens allowed (${window}).`,
        status: 'INVALID_ARGUMENT',
      },
    }),
  );
}

export class ScriptedLlm extends BaseLlm {
  static override readonly supportedModels: Array<string | RegExp> = [/scripted-.*/];
  readonly requests: RecordedRequest[] = [];
  private readonly settings: ScriptedLlmOptions;
  /** The last accepted request per cache key, for the implicit cache. */
  private readonly lastAccepted = new Map<string, PrefixSnapshot>();

  constructor(options: ScriptedLlmOptions) {
    super({ model: options.model ?? 'scripted-model' });
    this.settings = options;
  }

  /** Requests the model rejected as too long. */
  get rejectedRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.rejected);
  }

  /** `_stream`: taken as `BaseLlm` declares it, so a streaming wrapper can pass it on; the script answers whole. */
  override async *generateContentAsync(request: LlmRequest, _stream?: boolean): AsyncGenerator<LlmResponse, void> {
    const index = this.requests.length;
    const promptTokens = this.settings.countTokens(request);
    const rejected = promptTokens > this.settings.window;
    const system = request.config?.systemInstruction;
    const agentName = request.config?.labels?.['adk_agent_name'];
    const cacheKey = `${this.settings.cacheKey?.(request) ?? ''}\u0000${agentName ?? ''}`;
    const minCached = this.settings.minCachedTokens ?? DEFAULT_MIN_CACHED_TOKENS;
    const cachedPromptTokens =
      rejected || minCached === false
        ? 0
        : cachedPrefixTokens(
            this.lastAccepted.get(cacheKey),
            request,
            this.settings.countTokens,
            minCached,
            promptTokens,
          );
    this.requests.push({
      index,
      timestamp: performance.timeOrigin + performance.now(),
      promptTokens,
      rejected,
      cachedPromptTokens,
      contents: structuredClone(request.contents ?? []),
      systemInstruction: typeof system === 'string' ? system : undefined,
      agentName,
    });
    // A real provider answers in milliseconds, never the same millisecond (see ADK notes, section 6).
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (rejected) throw (this.settings.rejection ?? promptTooLongError)(promptTokens, this.settings.window);
    const failure = this.settings.fail?.({ request, index, promptTokens });
    if (failure) throw failure;
    if (minCached !== false && (this.settings.cachesPrefix?.(request) ?? true))
      this.lastAccepted.set(cacheKey, snapshotRequest(request));
    const response = this.settings.script({ request, index, promptTokens });
    const outputTokens = this.outputTokensOf({ request, index, promptTokens }, response.content);
    const report =
      typeof this.settings.reportUsage === 'function'
        ? this.settings.reportUsage(index)
        : (this.settings.reportUsage ?? true);
    yield {
      finishReason: 'STOP' as LlmResponse['finishReason'],
      ...response,
      content: structuredClone(response.content),
      ...(report
        ? {
            usageMetadata: {
              promptTokenCount: promptTokens,
              candidatesTokenCount: outputTokens,
              totalTokenCount: promptTokens + outputTokens,
              ...(cachedPromptTokens > 0 ? { cachedContentTokenCount: cachedPromptTokens } : {}),
            },
          }
        : {}),
    };
  }

  private outputTokensOf(call: ScriptCall, content: Content): number {
    const setting = this.settings.outputTokens ?? 50;
    return typeof setting === 'number' ? setting : setting(call, content);
  }

  override async connect(): Promise<BaseLlmConnection> {
    throw new Error('ScriptedLlm does not support live connections.');
  }
}
