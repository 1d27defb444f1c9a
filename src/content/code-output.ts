/**
 * The output of code the model had run. Gemini's code execution (ADK's `BuiltInCodeExecutor`) answers with
 * `executableCode` and `codeExecutionResult` parts in the model's own content, the output in
 * `codeExecutionResult.output`; ADK's own executors (`UnsafeLocalCodeExecutor`) write it as the text of a part
 * that carries `codeExecutionResult` with its outcome only (`buildCodeExecutionResultPart`, @google/adk 2.0).
 * A content that holds nothing but a `codeExecutionResult` (what streaming gives: each chunk of other parts is an
 * event of its own) ADK sends as a user content of one text, the output between its executor's delimiters
 * (`convertCodeExecutionParts`; "```tool_output\n" and "\n```" unless the executor sets others), and only for an
 * agent with a code executor: the shell marks those contents (`markRenderedCodeOutputs`).
 */
import type { Content, Part } from '@google/genai';

/** Where a part holds a code run's output: its `output` field, or its text. */
type CodeOutputField = 'output' | 'text';

/** The field of `part` that holds a code run's output, if it holds one. */
export function codeOutputField(part: Part | undefined): CodeOutputField | undefined {
  const result = part?.codeExecutionResult;
  if (!result || part?.thought === true) return undefined;
  if (typeof result.output === 'string') return 'output';
  return typeof part?.text === 'string' ? 'text' : undefined;
}

/** Whether `content` holds the output of a code run, as a part of its own or as ADK's text of it. */
export function hasCodeOutput(content: Content | undefined): boolean {
  return (
    (content?.parts?.some((part) => codeOutputField(part) !== undefined) ?? false) ||
    renderedCodeOutput(content) !== undefined
  );
}

/** The delimiters ADK wraps a code run's output in when it sends it as text (`BaseCodeExecutor.executionResultDelimiters`). */
export type OutputDelimiters = readonly [open: string, close: string];

/**
 * The request's own contents that ADK wrote from a code run's result alone, with the delimiters of the agent's
 * executor, as the shell marked them. The shape alone does not tell: a user's message can be exactly
 * "```tool_output\n…\n```", and ADK renders outputs so only for an agent with a code executor, between that
 * executor's delimiters. Weak and by object: a mark lives as long as its content, nothing is written on ADK's
 * objects, and a copy the core makes of such a content is marked again (`withRenderedOutput`, `sameOutputKind`).
 */
const RENDERED_WITH = new WeakMap<Content, OutputDelimiters>();

/** The text of `content` when it is one user text between `delimiters` (with something in them); else `undefined`. */
function renderedText(content: Content | undefined, [open, close]: OutputDelimiters): string | undefined {
  const parts = content?.parts;
  if (content?.role !== 'user' || parts?.length !== 1 || open.length + close.length === 0) return undefined;
  const text = parts[0]?.text;
  if (typeof text !== 'string' || parts[0]?.thought === true) return undefined;
  if (text.length < open.length + close.length || !text.startsWith(open) || !text.endsWith(close)) return undefined;
  return text;
}

function mark<T extends Content>(content: T, delimiters: OutputDelimiters): T {
  RENDERED_WITH.set(content, delimiters);
  return content;
}

/**
 * Marks the contents of a request that are ADK's text of a code run's output: those in its shape between the
 * agent's executor's `delimiters` whose output is one the session's code runs gave (`ran`: whether an output is one
 * of its events' that hold nothing but a run's result, which ADK renders so). A user's message in that shape is not
 * one of them unless it repeats an output word for word. The shell calls it only for an agent with a code executor,
 * before anything reads the request (adk/hooks/code-output-marks.ts); without it no user text is read as an output.
 */
export function markRenderedCodeOutputs(
  contents: readonly Content[],
  delimiters: OutputDelimiters,
  ran: (output: string) => boolean,
): void {
  const copied: OutputDelimiters = [delimiters[0], delimiters[1]];
  for (const content of contents) {
    const text = renderedText(content, copied);
    if (text !== undefined && ran(text.slice(copied[0].length, text.length - copied[1].length))) mark(content, copied);
  }
}

/** The output inside a content ADK wrote from a code run's result alone, if `content` is one; else `undefined`. */
export function renderedCodeOutput(content: Content | undefined): string | undefined {
  const delimiters = content && RENDERED_WITH.get(content);
  const text = delimiters && renderedText(content, delimiters);
  return delimiters && text !== undefined
    ? text.slice(delimiters[0].length, text.length - delimiters[1].length)
    : undefined;
}

/** `content`, ADK's text of a code run's output, with `output` in its place between the same delimiters. */
export function withRenderedOutput(content: Content, output: string): Content {
  const delimiters = RENDERED_WITH.get(content);
  if (!delimiters) return content;
  const text = `${delimiters[0]}${output}${delimiters[1]}`;
  return mark({ ...content, parts: [{ ...content.parts?.[0], text }] }, delimiters);
}

/** `copy`, made of `original`, marked as ADK's text of a code run's output when `original` is one. */
export function sameOutputKind<T extends Content>(original: Content, copy: T): T {
  const delimiters = RENDERED_WITH.get(original);
  return delimiters && copy !== original ? mark(copy, delimiters) : copy;
}
