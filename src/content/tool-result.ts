/** Whether a content holds a tool's result, in any of the shapes ADK sends one in. */
import type { Content } from '@google/genai';
import { hasCodeOutput } from './code-output.js';
import { hasFunctionResponse } from './content-shape.js';
import { hasForeignResult } from './foreign-result.js';

/** A function response of this agent's, another agent's result (foreign-result.ts), or a code run's output. */
export function holdsToolResult(content: Content | undefined): boolean {
  return hasFunctionResponse(content) || hasForeignResult(content) || hasCodeOutput(content);
}
