/** Whether a content holds a tool's result, in any of the shapes ADK sends one in. */
import type { Content } from '@google/genai';
import { hasCodeOutput } from './code-output.js';
import { hasFunctionResponse, isForeignContext } from './content-shape.js';
import { hasForeignResult } from './foreign-result.js';

/** A function response of this agent's, another agent's result (foreign-result.ts), or a code run's output. */
export function holdsToolResult(content: Content | undefined): boolean {
  return hasFunctionResponse(content) || hasForeignResult(content) || hasCodeOutput(content);
}

/**
 * A result of this agent's own: a function response, or a code run's output (its own part, or ADK's text of it).
 * Another agent's code runs come copied as they are into its `For context:` content: not this agent's.
 */
export function isOwnToolResult(content: Content | undefined): boolean {
  return hasFunctionResponse(content) || (hasCodeOutput(content) && !isForeignContext(content));
}
