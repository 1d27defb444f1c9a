/**
 * A scripted summarizer, strict like the model: it rejects a prompt over its
 * own window with Gemini's 400 error, respects the output cap it is given
 * (characters ≈ tokens x 3), and can be told to fail, hang until aborted,
 * return empty text or ignore the cap, per call. It records every call.
 *
 * It serves both sides of the simulator's comparison: ContextGuard takes it as
 * a `Summarizer`; ADK's `LlmSummarizer` (for `TokenBasedContextCompactor`)
 * takes it as a `BaseLlm` through `ScriptedSummarizerLlm`.
 */
import type { SummarizeRequest, SummarizeResult, Summarizer } from '../summary/summarizer.js';
import { SUMMARY_LENGTH_LINE, SUMMARY_WORDS_PER_TOKEN } from '../summary/prompt.js';
import { promptTooLongError } from './scripted-llm.js';

/** What a call does: summarize, throw a 503, hang until aborted, answer empty, or ignore the output cap. */
export type SummarizerBehavior = 'ok' | 'fail' | 'timeout' | 'empty' | 'overlong';

/** Characters of output per token of `maxOutputTokens`. */
export const CHARS_PER_OUTPUT_TOKEN = 3;
/** How long a "timeout" summarizer hangs when nobody aborts it (ADK's LlmSummarizer never does). */
const UNABORTED_HANG_MS = 1_500;

export interface SummarizerCall {
  readonly prompt: string;
  readonly promptTokens: number;
  readonly behavior: SummarizerBehavior;
  readonly rejected: boolean;
  readonly outputChars: number;
  /** Output tokens billed (the same count the summary result reports). */
  readonly outputTokens: number;
  readonly maxOutputTokens: number;
  /** The `now` clock when the call started. */
  readonly startedAt: number;
}

export interface ScriptedSummarizerOptions {
  /** Behaviour of every call, or a list cycled over calls. @default 'ok' */
  readonly behavior?: SummarizerBehavior | readonly SummarizerBehavior[];
  /** The summarizer model's context window; a longer prompt is rejected. @default unbounded */
  readonly window?: number;
  /** Ground-truth tokens of a prompt. @default characters / 4 */
  readonly countText?: (text: string) => number;
  /** Cap used when the caller states none (ADK's LlmSummarizer sends no config). @default 1,024 */
  readonly defaultMaxOutputTokens?: number;
  /** Clock read when a call starts (the simulator counts model calls with it). @default Date.now */
  readonly now?: () => number;
}

const DEFAULTS = {
  behavior: 'ok',
  window: Infinity,
  countText: (text: string) => Math.ceil(text.length / 4),
  defaultMaxOutputTokens: 1_024,
  now: Date.now,
} as const;

const QUOTED_BLOCK = /<(previous_summary|current_request|conversation)>\n([\s\S]*?)\n<\/\1>/g;

/**
 * What the prompt quotes from the conversation: its `<previous_summary>`, `<current_request>` and `<conversation>`
 * blocks when it has them, so the summarizer's own instruction lines ("Keep it under 973 words") never come back
 * as key facts (the forty-second outside trial); a prompt without them (ADK's own summarizer's) whole.
 */
function quotedData(prompt: string): string {
  const blocks = [...prompt.matchAll(QUOTED_BLOCK)].map((match) => match[2] ?? '');
  return blocks.length > 0 ? blocks.join('\n') : prompt;
}

/** Lines of the prompt's quoted data worth keeping: identifiers, numbers and the request. */
function salientLines(prompt: string, limit: number): string[] {
  const lines = quotedData(prompt)
    .split('\n')
    .filter((line) => /\d/.test(line) && line.trim().length > 12);
  const step = Math.max(1, Math.floor(lines.length / Math.max(1, limit)));
  const picked: string[] = [];
  for (let i = lines.length - 1; i >= 0 && picked.length < limit; i -= step)
    picked.push((lines[i] ?? '').slice(0, 160));
  return picked.reverse();
}

function currentRequestOf(prompt: string): string | undefined {
  const match = /<current_request>\n([\s\S]*?)\n<\/current_request>/.exec(prompt);
  return match?.[1];
}

/** A deterministic, structured summary of about `chars` characters. */
function scriptedSummary(prompt: string, chars: number): string {
  const request = currentRequestOf(prompt);
  const sections = [
    '## Current state',
    `The agent has worked through a conversation of ${prompt.length} characters; tool results were reviewed.`,
    "## User's current request",
    request ? `"${request.slice(0, 600)}"` : 'Continue the latest request.',
    '## Key facts',
    ...salientLines(prompt, 40).map((line) => `- ${line}`),
    '## Next steps',
    'Continue from the latest tool results.',
  ];
  let text = sections.join('\n');
  while (text.length < chars) text += `\n- note ${text.length}: earlier results confirmed the same figures.`;
  return text.slice(0, chars);
}

/**
 * The summary a scripted summarizer writes for `prompt` under an output cap of `maxOutputTokens`:
 * about 8% of the prompt, at least 240 characters, within the cap and within the length the prompt
 * asks for, as a model that follows its instruction does (a thinking model's cap also holds its
 * thoughts); what it holds is read from the prompt. The simulator's scripted agent model answers a
 * summary request with it too.
 */
export function scriptedSummaryText(prompt: string, maxOutputTokens: number): string {
  const asked = SUMMARY_LENGTH_LINE.exec(prompt)?.[1];
  const cap =
    asked === undefined ? maxOutputTokens : Math.min(maxOutputTokens, Number(asked) / SUMMARY_WORDS_PER_TOKEN);
  const target = Math.min(Math.floor(cap * CHARS_PER_OUTPUT_TOKEN), Math.max(240, Math.floor(prompt.length * 0.08)));
  return scriptedSummary(prompt, target);
}

/** Output tokens billed for `chars` characters of a scripted summary. */
export function scriptedOutputTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_OUTPUT_TOKEN);
}

/** Resolves when `signal` aborts, or after UNABORTED_HANG_MS when nobody aborts. */
function hangUntilAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, UNABORTED_HANG_MS);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export class ScriptedSummarizer implements Summarizer {
  readonly name = 'scripted-summarizer';
  readonly calls: SummarizerCall[] = [];
  private readonly options: Required<ScriptedSummarizerOptions>;

  constructor(options: ScriptedSummarizerOptions = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Sum of the prompt tokens of the calls the summarizer accepted (billed). */
  get billedPromptTokens(): number {
    return this.calls.reduce((sum, call) => sum + (call.rejected ? 0 : call.promptTokens), 0);
  }

  async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
    return this.respond(request.prompt, request.systemInstruction, request.maxOutputTokens, request.signal);
  }

  async respond(
    prompt: string,
    systemInstruction: string,
    maxOutputTokens: number | undefined,
    signal: AbortSignal | undefined,
    override?: SummarizerBehavior,
  ): Promise<SummarizeResult> {
    const behaviors = this.options.behavior;
    const behavior: SummarizerBehavior =
      override ??
      (typeof behaviors === 'string'
        ? behaviors
        : (behaviors[this.calls.length % Math.max(1, behaviors.length)] ?? 'ok'));
    const cap = maxOutputTokens ?? this.options.defaultMaxOutputTokens;
    const promptTokens = this.options.countText(prompt) + this.options.countText(systemInstruction);
    const rejected = promptTokens > this.options.window;
    const maxChars = cap * CHARS_PER_OUTPUT_TOKEN;
    const text = rejected
      ? ''
      : behavior === 'empty'
        ? ''
        : behavior === 'overlong'
          ? scriptedSummary(prompt, maxChars * 3)
          : scriptedSummaryText(prompt, cap);
    const outputChars = behavior === 'ok' || behavior === 'overlong' ? text.length : 0;
    this.calls.push({
      prompt,
      promptTokens,
      behavior,
      rejected,
      outputChars,
      outputTokens: scriptedOutputTokens(outputChars),
      maxOutputTokens: cap,
      startedAt: this.options.now(),
    });
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (rejected) throw promptTooLongError(promptTokens, this.options.window);
    if (behavior === 'fail')
      throw new Error(
        JSON.stringify({
          error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
        }),
      );
    if (behavior === 'timeout') {
      await hangUntilAborted(signal);
      throw new Error('DEADLINE_EXCEEDED: the summarizer did not answer in time');
    }
    return { text, finishReason: 'STOP', promptTokens, outputTokens: Math.ceil(text.length / CHARS_PER_OUTPUT_TOKEN) };
  }
}
