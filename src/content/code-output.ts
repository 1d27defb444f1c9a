/**
 * The output of code the model had run. Gemini's code execution (ADK's `BuiltInCodeExecutor`) answers with
 * `executableCode` and `codeExecutionResult` parts in the model's own content, the output in
 * `codeExecutionResult.output`; ADK's own executors (`UnsafeLocalCodeExecutor`) write it as the text of a part
 * that carries `codeExecutionResult` with its outcome only (`buildCodeExecutionResultPart`, @google/adk 2.0).
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

/** Whether `content` holds the output of a code run. */
export function hasCodeOutput(content: Content | undefined): boolean {
  return content?.parts?.some((part) => codeOutputField(part) !== undefined) ?? false;
}
