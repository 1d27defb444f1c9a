/**
 * A summarizer model as an ADK `BaseLlm`, so the guard's real `llmSummarizer`
 * adapter runs (request building, thought filtering, finish reason, abort
 * signal). Its behaviour is switched per call with `mode`, which is how tests
 * and the property runs inject summarizer faults.
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import { promptTooLongError, type RequestTokenCounter } from '../../src/testing/index.js';

export type SummarizerMode =
  /** A well-formed summary that ends with STOP. */
  | 'ok'
  /** Throws a 503, as an overloaded provider does. */
  | 'throw'
  /** Answers with no parts at all. */
  | 'empty'
  /** Answers with whitespace only. */
  | 'blank'
  /** Never answers until the guard aborts it (it honours the abort signal). */
  | 'hang'
  /** Never answers and ignores the abort signal. */
  | 'hang-deaf'
  /** A summary of `hugeChars` characters, far above the cap the guard asked for. */
  | 'huge'
  /** A summary cut by the provider: finishReason MAX_TOKENS. */
  | 'max-tokens'
  /** A thought part (which must never reach the summary) followed by the summary. */
  | 'thought'
  /** Only thought parts: no visible text. */
  | 'thought-only'
  /** An error response (errorCode, no content), the way ADK's Gemini reports a blocked candidate. */
  | 'error-response';

export const SUMMARIZER_MODES: readonly SummarizerMode[] = [
  'ok',
  'throw',
  'empty',
  'blank',
  'hang',
  'hang-deaf',
  'huge',
  'max-tokens',
  'thought',
  'thought-only',
  'error-response',
];

/** Text the summarizer "thinks"; tests assert it never reaches a summary or a request. */
export const SUMMARIZER_THOUGHT = 'PRIVATE-SUMMARIZER-THOUGHT';

export interface SummarizerCall {
  readonly mode: SummarizerMode;
  readonly prompt: string;
  readonly systemInstruction: string | undefined;
  readonly maxOutputTokens: number | undefined;
  /** Ground-truth size of the prompt, when a counter was given. */
  readonly promptTokens: number | undefined;
  readonly rejected: boolean;
  /** Set when the call saw its abort signal fire. */
  aborted: boolean;
}

export interface ScriptedSummarizerOptions {
  readonly model?: string;
  readonly mode?: SummarizerMode;
  /** Characters of a 'huge' answer. @default 200,000 */
  readonly hugeChars?: number;
  /** Reject prompts over this many ground-truth tokens with Gemini's 400 (needs `countTokens`). */
  readonly window?: number;
  readonly countTokens?: RequestTokenCounter;
}

export class ScriptedSummarizerLlm extends BaseLlm {
  static override readonly supportedModels: Array<string | RegExp> = [/scripted-summarizer.*/];
  mode: SummarizerMode;
  readonly calls: SummarizerCall[] = [];
  private readonly settings: ScriptedSummarizerOptions;

  constructor(options: ScriptedSummarizerOptions = {}) {
    super({ model: options.model ?? 'scripted-summarizer' });
    this.mode = options.mode ?? 'ok';
    this.settings = options;
  }

  override async *generateContentAsync(
    request: LlmRequest,
    _stream?: boolean,
    abortSignal?: AbortSignal,
  ): AsyncGenerator<LlmResponse, void> {
    const mode = this.mode;
    const prompt = (request.contents ?? [])
      .flatMap((content) => content.parts ?? [])
      .map((part) => part.text ?? '')
      .join('\n');
    const system = request.config?.systemInstruction;
    const promptTokens = this.settings.countTokens?.(request);
    const rejected =
      promptTokens !== undefined && this.settings.window !== undefined && promptTokens > this.settings.window;
    const call: SummarizerCall = {
      mode,
      prompt,
      systemInstruction: typeof system === 'string' ? system : undefined,
      maxOutputTokens: request.config?.maxOutputTokens,
      promptTokens,
      rejected,
      aborted: false,
    };
    this.calls.push(call);
    abortSignal?.addEventListener('abort', () => (call.aborted = true), { once: true });
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (rejected) throw promptTooLongError(promptTokens ?? 0, this.settings.window ?? 0);
    const number = this.calls.length;
    const summary = `## Current state\nSummary ${number}: ${prompt.length} characters of history were condensed.\n## Next steps\nContinue.`;
    const usage = {
      promptTokenCount: promptTokens ?? Math.ceil(prompt.length / 4),
      candidatesTokenCount: 40,
      totalTokenCount: (promptTokens ?? 0) + 40,
    };
    switch (mode) {
      case 'ok':
        yield {
          content: { role: 'model', parts: [{ text: summary }] },
          finishReason: 'STOP' as LlmResponse['finishReason'],
          usageMetadata: usage,
        };
        return;
      case 'throw':
        throw new Error(
          JSON.stringify({
            error: { code: 503, message: 'The summarizer model is overloaded.', status: 'UNAVAILABLE' },
          }),
        );
      case 'empty':
        yield { content: { role: 'model', parts: [] }, finishReason: 'STOP' as LlmResponse['finishReason'] };
        return;
      case 'blank':
        yield {
          content: { role: 'model', parts: [{ text: '  \n\t ' }] },
          finishReason: 'STOP' as LlmResponse['finishReason'],
        };
        return;
      case 'hang':
        await new Promise<void>((_, reject) => {
          if (abortSignal?.aborted) reject(new Error('aborted'));
          abortSignal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        });
        return;
      case 'hang-deaf':
        await new Promise<never>(() => undefined);
        return;
      case 'huge': {
        const filler = 'Fact: the order 4411 shipped from warehouse B. ';
        yield {
          content: {
            role: 'model',
            parts: [
              { text: summary + '\n' + filler.repeat(Math.ceil((this.settings.hugeChars ?? 200_000) / filler.length)) },
            ],
          },
          finishReason: 'STOP' as LlmResponse['finishReason'],
          usageMetadata: usage,
        };
        return;
      }
      case 'max-tokens':
        yield {
          content: { role: 'model', parts: [{ text: `${summary}\n## Key facts\nThe first fact is that the` }] },
          finishReason: 'MAX_TOKENS' as LlmResponse['finishReason'],
          usageMetadata: usage,
        };
        return;
      case 'thought':
        yield {
          content: { role: 'model', parts: [{ text: SUMMARIZER_THOUGHT, thought: true }, { text: summary }] },
          finishReason: 'STOP' as LlmResponse['finishReason'],
          usageMetadata: usage,
        };
        return;
      case 'thought-only':
        yield {
          content: { role: 'model', parts: [{ text: SUMMARIZER_THOUGHT, thought: true }] },
          finishReason: 'STOP' as LlmResponse['finishReason'],
        };
        return;
      case 'error-response':
        yield {
          errorCode: 'SAFETY',
          errorMessage: 'The candidate was blocked.',
          finishReason: 'SAFETY' as LlmResponse['finishReason'],
        };
        return;
    }
  }

  override async connect(): Promise<BaseLlmConnection> {
    throw new Error('ScriptedSummarizerLlm does not support live connections.');
  }
}
