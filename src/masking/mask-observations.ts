/**
 * Observation masking: the cheapest remedy for a full window. Tool results
 * older than the last few are replaced by a short placeholder that says what
 * was elided (tool, size, its identifiers, an excerpt) and how to get it
 * back; no model call is made. A placeholder suggests calling the tool again
 * only for a tool declared read-only: calling any other again could repeat a
 * side effect (a second order). The call and response parts stay where they are, so no pair is
 * orphaned; the user's messages are never touched, and the latest tool result
 * of the in-flight turn (the one the model is answering) is never masked.
 * Another agent's results, which ADK sends as text (content/foreign-result.ts),
 * and the output of code the model ran (content/code-output.ts) are masked
 * alike, what stands around them kept; the recall tool reads them back from
 * their event.
 *
 * Masking is a pure function of the content, its token count and a watermark
 * (`upTo`), so the same history is masked the same way on every later call,
 * byte for byte: the request prefix stays stable between maskings (which keeps
 * a provider's prompt cache warm), exactly like the summary's watermark. It
 * is built once per result and process (masking/placeholder-cache.ts), from the result as
 * a database stores it: its size is the result's JSON text's length, its excerpt and
 * identifiers come from walks of bounded nodes over the text read back.
 */
import type { Content, Part } from '@google/genai';
import { hasFunctionResponse, latestUserRequestIndex } from '../content/content-shape.js';
import { isOwnToolResult } from '../content/tool-result.js';
import { foreignResultOf, hasForeignResult } from '../content/foreign-result.js';
import { codeOutputField, renderedCodeOutput, withRenderedOutput } from '../content/code-output.js';
import { withEditedSignature } from '../content/thought-signature.js';
import {
  codeOutputPlaceholder,
  foreignPlaceholder,
  isCodeOutputPlaceholder,
  isForeignPlaceholder,
  isPlaceholderResponse,
  placeholder,
  type MaskHint,
} from './placeholder-text.js';

/** Contents of fewer tokens are left alone: the placeholder would save nothing. */
const MIN_MASKED_TOKENS = 150;

/**
 * Where masking stops: tool results before this index are the ones to mask. The last `keepRecent` tool results
 * (or code runs' outputs) of the in-flight turn (after the user's latest request) are kept, the latest one always
 * (`keepRecent` is at least 1); results of completed turns are maskable, since the alternative when a compaction is
 * due is to summarize them away. Other agents' results in the in-flight turn are maskable only before this agent's
 * kept results, which it has acted on since, or before its latest answer of the turn (a `LoopAgent` or a pipeline
 * that runs it again: what it answered on is a finished step to it; the sixtieth outside trial's writer, with no
 * tools, was summarized on 43 of its 60 calls in one loop). Those after, or in a turn where it has neither, are
 * what it was just handed (the nineteenth review: a hand-off's data masked, unrecoverable on a small window).
 */
export function maskKeepFrom(contents: readonly Content[], keepRecent: number): number {
  const turnStart = Math.max(0, latestUserRequestIndex(contents));
  let kept = 0;
  let earliestKept = contents.length;
  for (let i = contents.length - 1; i > turnStart; i--) {
    if (!isOwnToolResult(contents[i])) continue;
    kept++;
    earliestKept = i;
    if (kept === Math.max(1, keepRecent)) return i;
  }
  for (let i = earliestKept - 1; i > turnStart; i--) if (isAnswer(contents[i], contents[i + 1])) return i;
  return turnStart;
}

/**
 * This agent's answer: a content of its own with words and no call (another agent's reaches it as a user's text),
 * after which others spoke. A remark streamed before a call is stored as a content of its own, followed by the call
 * (ADK's SSE aggregation): no answer (review 53).
 */
function isAnswer(content: Content | undefined, next: Content | undefined): boolean {
  if (content?.role !== 'model' || next === undefined || next.role === 'model' || isOwnToolResult(next)) return false;
  const parts = content.parts ?? [];
  return parts.some((part) => part.text && !part.thought) && !parts.some((part) => part.functionCall);
}

/** `content`'s function responses replaced by placeholders; the same object when none changes. */
function maskResponses(content: Content, hint: MaskHint): Content {
  const parts = content.parts ?? [];
  const masked = parts.map((part): Part => {
    const response = part.functionResponse;
    if (!response?.response || isPlaceholderResponse(response.response)) return part;
    return {
      ...part,
      functionResponse: {
        ...response,
        response: placeholder(response.name ?? 'unknown', response.response, hint),
      },
    };
  });
  return masked.some((part, i) => part !== parts[i]) ? { ...content, parts: masked } : content;
}

/** Characters under which a result's text is left as it is: a placeholder is about that long itself. */
const MIN_FOREIGN_RESULT_CHARS = 200;

/**
 * Another agent's events (ADK's `For context:` content) with each of its tool results replaced by a placeholder
 * where that is shorter; what that agent said and called stays as it is. The same object when none changes.
 */
function maskForeignResults(content: Content, hint: MaskHint): Content {
  const parts = content.parts ?? [];
  const masked = parts.map((part): Part => {
    const result = foreignResultOf(part);
    if (!result || result.text.length < MIN_FOREIGN_RESULT_CHARS || isForeignPlaceholder(result.text)) return part;
    const text = `${result.lead}${foreignPlaceholder(result.tool, result.text, hint)}`;
    return text.length < (part.text ?? '').length ? { ...part, text } : part;
  });
  return masked.some((part, i) => part !== parts[i]) ? { ...content, parts: masked } : content;
}

/** The placeholder to send for a code run's `output`: `undefined` when it is one already or would not be shorter. */
function elidedOutput(output: string, hint: MaskHint): string | undefined {
  if (isCodeOutputPlaceholder(output)) return undefined;
  const text = codeOutputPlaceholder(output, hint);
  return text.length < output.length ? text : undefined;
}

/** `part` with the output of its code run replaced by a placeholder where that is shorter; the same part otherwise. */
function maskCodeOutput(part: Part, hint: MaskHint): Part {
  const field = codeOutputField(part);
  const output = field === 'output' ? part.codeExecutionResult?.output : field === 'text' ? part.text : undefined;
  const text = output === undefined ? undefined : elidedOutput(output, hint);
  if (text === undefined) return part;
  const masked =
    field === 'output'
      ? { ...part, codeExecutionResult: { ...part.codeExecutionResult, output: text } }
      : { ...part, text };
  return withEditedSignature(part, masked);
}

/** ADK's text of a code run's output (content/code-output.ts) with the output replaced where that is shorter. */
function maskRenderedOutput(content: Content, output: string, hint: MaskHint): Content {
  const text = elidedOutput(output, hint);
  return text === undefined ? content : withRenderedOutput(content, text);
}

/**
 * The content with its tool results replaced by placeholders when it holds at least `MIN_MASKED_TOKENS`
 * (`tokens`, its measured count): its own function responses, the results in another agent's events as ADK
 * renders them (content/foreign-result.ts), or the output of code the model ran (content/code-output.ts). The
 * same object when nothing changes.
 */
export function maskContent(content: Content, hint: MaskHint, tokens: number): Content {
  if (tokens < MIN_MASKED_TOKENS) return content;
  if (hasFunctionResponse(content)) return maskResponses(content, hint);
  if (hasForeignResult(content)) return maskForeignResults(content, hint);
  const rendered = renderedCodeOutput(content);
  if (rendered !== undefined) return maskRenderedOutput(content, rendered, hint);
  const parts = content.parts ?? [];
  const masked = parts.map((part) => maskCodeOutput(part, hint));
  return masked.some((part, i) => part !== parts[i]) ? { ...content, parts: masked } : content;
}

/** `contents` with the tool results in [from, upTo) masked; contents outside the range are the same objects. */
export function applyMask(
  contents: readonly Content[],
  tokens: readonly number[],
  from: number,
  upTo: number,
  hint: MaskHint,
): Content[] {
  if (upTo <= from) return contents.slice();
  return contents.map((content, i) => (i >= from && i < upTo ? maskContent(content, hint, tokens[i] ?? 0) : content));
}
