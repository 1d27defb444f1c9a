/**
 * The scripted summarizer seen through ADK's model interface, so the guard's real
 * `llmSummarizer` adapter (request building, thought filtering, finish reason, abort signal) or
 * ADK's `LlmSummarizer` runs against it. The summary, the window check and the summarizer's own
 * faults come from a `ScriptedSummarizer`; this class adds the faults only a model response can
 * have. `mode` switches per call, which is how tests inject summarizer faults.
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import type { SummarizeResult } from '../summary/summarizer.js';
import type { RequestTokenCounter } from './ground-truth.js';
import { CHARS_PER_OUTPUT_TOKEN, ScriptedSummarizer, type SummarizerBehavior } from './scripted-summarizer.js';

export type SummarizerMode =
  /** A well-formed summary that ends with STOP. */
  | 'ok'
  /** Throws a 503, as an overloaded provider does. */
  | 'throw'
  /** Answers with no parts at all. */
  | 'empty'
  /** Answers with whitespace only. */
  | 'blank'
  /** Never answers until the caller aborts it. */
  | 'hang'
  /** Never answers and ignores the abort signal. */
  | 'hang-deaf'
  /** A summary far above the cap it was asked for. */
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

/** What the summarizer does for a mode; the response-shape faults start from a normal summary. */
const BEHAVIOR: Partial<Record<SummarizerMode, SummarizerBehavior>> = {
  throw: 'fail',
  empty: 'empty',
  hang: 'timeout',
  huge: 'overlong',
};

/** Text the summarizer "thinks"; tests assert it never reaches a summary or a request. */
export const SUMMARIZER_THOUGHT = 'PRIVATE-SUMMARIZER-THOUGHT';

export interface SummarizerLlmCall {
  /** The mode of the call; undefined when the summarizer's own behaviour decided. */
  readonly mode: SummarizerMode | undefined;
  readonly prompt: string;
  readonly systemInstruction: string | undefined;
  readonly maxOutputTokens: number | undefined;
  /** The request's labels (ADK's `adk_agent_name` among them, when the guard passed the agent's). */
  readonly labels: Readonly<Record<string, string>> | undefined;
  /** The prompt's size and whether it was over the window, as the summarizer counted them. */
  readonly promptTokens: number;
  readonly rejected: boolean;
  /** Set when the call saw its abort signal fire. */
  aborted: boolean;
}

export interface ScriptedSummarizerLlmOptions {
  readonly model?: string;
  /** The mode of every call until changed. @default the summarizer's own behaviour ('ok') */
  readonly mode?: SummarizerMode;
  /** Reject prompts over this many tokens with Gemini's 400 (counted with `countTokens`). */
  readonly window?: number;
  readonly countTokens?: RequestTokenCounter;
  /** The summarizer behind it (its window and counter then apply). @default a new one from the options above */
  readonly summarizer?: ScriptedSummarizer;
}

function textOf(request: LlmRequest): { prompt: string; system: string | undefined } {
  const prompt = (request.contents ?? [])
    .flatMap((content) => content.parts ?? [])
    .map((part) => part.text ?? '')
    .join('\n');
  const system = request.config?.systemInstruction;
  return { prompt, system: typeof system === 'string' ? system : undefined };
}

function summarizerFor(options: ScriptedSummarizerLlmOptions): ScriptedSummarizer {
  const { countTokens, window } = options;
  return new ScriptedSummarizer({
    ...(window === undefined ? {} : { window }),
    ...(countTokens === undefined
      ? {}
      : {
          countText: (text: string) =>
            text
              ? countTokens({ contents: [{ role: 'user', parts: [{ text }] }], toolsDict: {}, liveConnectConfig: {} })
              : 0,
        }),
  });
}

export class ScriptedSummarizerLlm extends BaseLlm {
  static override readonly supportedModels: Array<string | RegExp> = [/scripted-summarizer.*/];
  mode: SummarizerMode | undefined;
  readonly calls: SummarizerLlmCall[] = [];
  readonly summarizer: ScriptedSummarizer;

  constructor(options: ScriptedSummarizerLlmOptions = {}) {
    super({ model: options.model ?? 'scripted-summarizer' });
    this.mode = options.mode;
    this.summarizer = options.summarizer ?? summarizerFor(options);
  }

  override async *generateContentAsync(
    request: LlmRequest,
    _stream?: boolean,
    abortSignal?: AbortSignal,
  ): AsyncGenerator<LlmResponse, void> {
    const mode = this.mode;
    const { prompt, system } = textOf(request);
    const maxOutputTokens = request.config?.maxOutputTokens;
    const behavior = mode === undefined ? undefined : (BEHAVIOR[mode] ?? 'ok');
    // The summarizer records its call before its first await.
    const answer = this.summarizer.respond(prompt, system ?? '', maxOutputTokens, abortSignal, behavior);
    const counted = this.summarizer.calls.at(-1);
    const call: SummarizerLlmCall = {
      mode,
      prompt,
      systemInstruction: system,
      maxOutputTokens,
      labels: request.config?.labels,
      promptTokens: counted?.promptTokens ?? 0,
      rejected: counted?.rejected ?? false,
      aborted: false,
    };
    this.calls.push(call);
    abortSignal?.addEventListener('abort', () => (call.aborted = true), { once: true });
    const result = await answer;
    if (mode === 'hang-deaf') await new Promise<never>(() => undefined);
    yield responseFor(mode, result, call.promptTokens, maxOutputTokens);
  }

  override async connect(): Promise<BaseLlmConnection> {
    throw new Error('ScriptedSummarizerLlm does not support live connections.');
  }
}

/** The model response a mode gives for the summarizer's answer. */
function responseFor(
  mode: SummarizerMode | undefined,
  result: SummarizeResult,
  promptTokens: number,
  maxOutputTokens: number | undefined,
): LlmResponse {
  const stop = 'STOP' as LlmResponse['finishReason'];
  const outputTokens = result.outputTokens ?? 0;
  const usageMetadata = {
    promptTokenCount: promptTokens,
    candidatesTokenCount: outputTokens,
    totalTokenCount: promptTokens + outputTokens,
  };
  const answer = (parts: Array<{ text: string; thought?: boolean }>, finishReason = stop): LlmResponse => ({
    content: { role: 'model', parts },
    finishReason,
    usageMetadata,
  });
  switch (mode) {
    case 'empty':
      return answer([]);
    case 'blank':
      return answer([{ text: '  \n\t ' }]);
    case 'max-tokens': {
      // Stopped at its output cap, having written up to it.
      const tail = '\n## Key facts\nThe first fact is that the';
      const chars = (maxOutputTokens ?? 0) * CHARS_PER_OUTPUT_TOKEN;
      const text = `${filledTo(result.text, Math.max(0, chars - tail.length))}${tail}`;
      return answer([{ text }], 'MAX_TOKENS' as LlmResponse['finishReason']);
    }
    case 'thought':
      return answer([{ text: SUMMARIZER_THOUGHT, thought: true }, { text: result.text }]);
    case 'thought-only':
      return answer([{ text: SUMMARIZER_THOUGHT, thought: true }]);
    case 'error-response':
      return {
        errorCode: 'SAFETY',
        errorMessage: 'The candidate was blocked.',
        finishReason: 'SAFETY' as LlmResponse['finishReason'],
      };
    default:
      return answer([{ text: result.text }]);
  }
}

/** `text` written on or cut to exactly `chars` characters: a model stopped at its output cap wrote up to it. */
function filledTo(text: string, chars: number): string {
  let filled = text;
  while (filled.length < chars) filled += '\nThe agent went on with the same task, step by step.';
  return filled.slice(0, chars);
}
