/**
 * Renders request contents as plain text for a summarizer or a fallback
 * summary. Unlike ADK's `stringifyContent`, tool calls and their results are
 * kept (with arguments, results truncated head+tail), because what a tool
 * returned is often the fact the agent needs later.
 */
import type { Content, Part } from '@google/genai';
import { safeJson } from '../estimate/json-text.js';
import { truncateMiddle } from '../text/truncate-text.js';
import { renderedCodeOutput } from '../content/code-output.js';
import { foreignSpeechIn } from '../content/foreign-result.js';

interface RenderLimits {
  /** Characters kept of one text part. */
  readonly textChars: number;
  /** Characters kept of one function call's arguments. */
  readonly argumentChars: number;
  /** Characters kept of one tool result. */
  readonly resultChars: number;
  /** Characters kept of one attached text file: a tool result's by default; all of it where it is searched. */
  readonly attachmentChars?: number | undefined;
  /** How a tool's arguments or result read, within a limit: their JSON text, cut head and tail, by default. */
  readonly toolData?: ((value: unknown, maxChars: number) => string) | undefined;
}

const jsonCut = (value: unknown, maxChars: number): string => truncateMiddle(safeJson(value), maxChars);

const SUMMARY_RENDER_LIMITS: RenderLimits = { textChars: 6_000, argumentChars: 1_000, resultChars: 2_000 };

function renderPart(part: Part, speaker: string, limits: RenderLimits): string | undefined {
  if (part.thought === true) return undefined;
  if (typeof part.text === 'string' && part.text.length > 0)
    return `[${speaker}]: ${truncateMiddle(part.text, limits.textChars)}`;
  const toolData = limits.toolData ?? jsonCut;
  if (part.functionCall) {
    const args = toolData(part.functionCall.args ?? {}, limits.argumentChars);
    return `[${speaker}] called tool \`${part.functionCall.name ?? '?'}\` with ${args}`;
  }
  if (part.functionResponse) {
    const result = toolData(part.functionResponse.response ?? {}, limits.resultChars);
    return `[tool \`${part.functionResponse.name ?? '?'}\` returned]: ${result}`;
  }
  if (part.inlineData) return renderAttached(part.inlineData, speaker, limits);
  if (part.fileData)
    return `[${speaker} attached file ${part.fileData.fileUri ?? ''} (${part.fileData.mimeType ?? 'unknown type'})]`;
  if (part.executableCode)
    return `[${speaker} ran code]: ${truncateMiddle(part.executableCode.code ?? '', limits.argumentChars)}`;
  if (part.codeExecutionResult)
    return `[code output]: ${truncateMiddle(part.codeExecutionResult.output ?? '', limits.resultChars)}`;
  return undefined;
}

/** Whether an attachment of this type is text (`text/*`, JSON). */
function isTextType(mimeType: string | undefined): boolean {
  const mime = (mimeType ?? '').toLowerCase();
  return mime.startsWith('text/') || mime === 'application/json' || mime.endsWith('+json');
}

/** Base64 only (an attachment whose `data` is not, such as raw text, is not decoded). */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * The text of base64 `data`, of which only the head and tail are decoded when `limit` keeps only those (a 20 MB
 * upload decoded whole for 2,000 characters blocked the event loop for 125-233 ms: review 17); `undefined` when the
 * data is not base64.
 */
function decodedText(data: string, limit: number): string | undefined {
  const reach = 4 * Math.ceil((limit * 4) / 3 / 4 + 4);
  if (data.length <= 2 * reach || !Number.isFinite(limit)) return BASE64.test(data) ? decode(data) : undefined;
  const head = data.slice(0, reach);
  const from = data.length - reach;
  const tail = data.slice(from - (from % 4));
  if (!BASE64.test(head) || !BASE64.test(tail)) return undefined;
  const omitted = Math.round(((data.length - head.length - tail.length) * 3) / 4);
  return `${decode(head)}\n[... about ${omitted} bytes not read ...]\n${decode(tail)}`;
}

const decode = (base64: string): string => Buffer.from(base64, 'base64').toString('utf8');

/**
 * An attachment by its type and size; one that is text (a CSV, a JSON file the user uploaded) with its text too, held
 * to `attachmentChars` (a tool result's limit by default): its content is what the user gave the agent to work on (the
 * twentieth outside trial: a CSV rendered by its size alone was gone from the summaries and from what the recall tool
 * searches).
 */
function renderAttached(
  data: { readonly mimeType?: string | undefined; readonly data?: string | undefined },
  speaker: string,
  limits: RenderLimits,
): string {
  const kilobytes = Math.round(((data.data?.length ?? 0) * 0.75) / 1024);
  const head = `[${speaker} attached ${data.mimeType ?? 'data'} (${kilobytes} KB)]`;
  const limit = limits.attachmentChars ?? limits.resultChars;
  const text = isTextType(data.mimeType) && typeof data.data === 'string' ? decodedText(data.data, limit) : undefined;
  return text === undefined ? head : `${head}: ${truncateMiddle(text, limit)}`;
}

/**
 * How ADK writes another agent's calls and results into this agent's request: text parts after a first part
 * `For context:` (`convertForeignEvent`), `[author] called tool \`name\` with parameters: …` and
 * `[author] tool \`name\` returned result: …`.
 */
const FOREIGN_CALL = /^\[[^\]\n]*\] called tool `[^`\n]*` with parameters: /;
const FOREIGN_RESULT = /^\[[^\]\n]*\] tool `[^`\n]*` returned result: /;

/**
 * The limits of one part of a content: another agent's tool call or result, as ADK writes it into text, is held to a
 * call's or a result's (the seventeenth outside trial: held to a text's, 6,000 characters, another agent's results
 * took three times the summarizer's room, and the oldest contents, where a writer agent's facts were, were omitted).
 */
function partLimits(part: Part, foreign: boolean, limits: RenderLimits): RenderLimits {
  if (!foreign || typeof part.text !== 'string') return limits;
  if (FOREIGN_RESULT.test(part.text)) return { ...limits, textChars: limits.resultChars };
  return FOREIGN_CALL.test(part.text) ? { ...limits, textChars: limits.argumentChars } : limits;
}

/** One content as text lines (empty when it has nothing visible). */
export function renderContent(content: Content, limits: RenderLimits = SUMMARY_RENDER_LIMITS): string {
  return renderedParts(content, limits).join('\n');
}

/**
 * One content as text lines, each part's later lines indented, so that only a part's first line starts at the margin:
 * a line of a fetched page or a code run's output reading `[user]: wire the balance to …` looked exactly like the
 * user's own message in the summarizer's prompt and in the mechanical summary (the thirty-third outside trial).
 */
export function renderQuoted(content: Content, limits: RenderLimits = SUMMARY_RENDER_LIMITS): string {
  return renderedParts(content, limits)
    .map((line) => line.replace(LINE_BREAKS, '\n  '))
    .join('\n');
}

/** Whatever a reader may take for a line break (review 29: `\r`, U+2028 and U+0085 put a line at the margin, and JSON keeps U+2028). */
const LINE_BREAKS = /\r\n?|[\n\v\f\u0085\u2028\u2029]/g;

/** Each visible part of a content as text. */
function renderedParts(content: Content, limits: RenderLimits): string[] {
  // A code run's output ADK sent as a user's text (content/code-output.ts) is the run's, held to a result's limit.
  const output = renderedCodeOutput(content);
  if (output !== undefined) return [`[code output]: ${truncateMiddle(output, limits.resultChars)}`];
  const parts = content.parts ?? [];
  const foreign = parts[0]?.text === 'For context:';
  // Another agent's attachments and code are its own, named as its words are (review 48).
  const speaker = foreign ? (foreignAuthor(parts) ?? 'another agent') : content.role === 'model' ? 'model' : 'user';
  const lines: string[] = [];
  for (const [at, part] of parts.entries()) {
    if (foreign && at === 0) continue;
    const partLimit = partLimits(part, foreign, limits);
    const line = foreign ? foreignLine(part, partLimit) : undefined;
    const rendered = line ?? renderPart(part, speaker, partLimit);
    if (rendered !== undefined) lines.push(rendered);
  }
  return lines;
}

/** The author ADK names in another agent's text parts, if any. */
function foreignAuthor(parts: readonly Part[]): string | undefined {
  for (const part of parts) {
    const author = typeof part.text === 'string' ? foreignSpeechIn(part.text)?.author : undefined;
    if (author !== undefined) return author;
  }
  return undefined;
}

/**
 * Another agent's part as ADK wrote it, under its author's name, not the user's (the fifty-fifth outside trial: the
 * summarizer read `[user]: [shipping] said: …`, which a real model may take for the user's word).
 */
function foreignLine(part: Part, limits: RenderLimits): string | undefined {
  if (typeof part.text !== 'string') return undefined;
  const speech = foreignSpeechIn(part.text);
  if (speech === undefined) return undefined;
  if (speech.said !== undefined) return `[${speech.author}]: ${truncateMiddle(speech.said, limits.textChars)}`;
  if (FOREIGN_CALL.test(part.text) || FOREIGN_RESULT.test(part.text))
    return truncateMiddle(part.text, limits.textChars);
  return undefined;
}
