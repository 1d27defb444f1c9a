/**
 * The output of code the model had run. Gemini's code execution (ADK's `BuiltInCodeExecutor`) answers with
 * `executableCode` and `codeExecutionResult` parts in the model's own content, the output in
 * `codeExecutionResult.output`; ADK's own executors (`UnsafeLocalCodeExecutor`) write it as the text of a part
 * that carries `codeExecutionResult` with its outcome only (`buildCodeExecutionResultPart`, @google/adk 2.0).
 * A content that holds nothing but a `codeExecutionResult` (what streaming gives: each chunk of other parts is an
 * event of its own) ADK sends as a user content of one text, the output between its executor's delimiters
 * (`convertCodeExecutionParts`; "```tool_output\n" and "\n```" unless the executor sets others).
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

/** ADK's default delimiters of a code run's output it sends as text (`BaseCodeExecutor.executionResultDelimiters`). */
const RENDERED_OUTPUT_OPEN = '```tool_output\n';
const RENDERED_OUTPUT_CLOSE = '\n```';

/** The output inside a content ADK wrote from a code run's result alone, if `content` is one; else `undefined`. */
export function renderedCodeOutput(content: Content | undefined): string | undefined {
  const parts = content?.parts;
  if (content?.role !== 'user' || parts?.length !== 1) return undefined;
  const text = parts[0]?.text;
  if (typeof text !== 'string' || parts[0]?.thought === true) return undefined;
  if (!text.startsWith(RENDERED_OUTPUT_OPEN) || !text.endsWith(RENDERED_OUTPUT_CLOSE)) return undefined;
  if (text.length < RENDERED_OUTPUT_OPEN.length + RENDERED_OUTPUT_CLOSE.length) return undefined;
  return text.slice(RENDERED_OUTPUT_OPEN.length, text.length - RENDERED_OUTPUT_CLOSE.length);
}

/** `output` between ADK's delimiters, as `renderedCodeOutput` reads it back. */
export function renderCodeOutput(output: string): string {
  return `${RENDERED_OUTPUT_OPEN}${output}${RENDERED_OUTPUT_CLOSE}`;
}
