/**
 * ADK sends a code run's output as a user's text only for an agent with a code executor, between that
 * executor's `executionResultDelimiters` (`CodeExecutionRequestProcessor`, @google/adk 2.0): the request's
 * contents in that shape are marked, so the core reads them as outputs and never another user text
 * (content/code-output.ts).
 */
import { isLlmAgent, type Context, type LlmRequest } from '@google/adk';
import { markRenderedCodeOutputs, type OutputDelimiters } from '../../content/code-output.js';

/** Marks the request's code run outputs ADK sent as text, before anything reads its contents. */
export function markCodeOutputs(context: Context, request: LlmRequest): void {
  const delimiters = executorDelimiters(context.invocationContext.agent);
  if (delimiters && request.contents) markRenderedCodeOutputs(request.contents, delimiters);
}

/** The delimiters of the agent's code executor, read by shape (ADK converts for any `BaseCodeExecutor`). */
function executorDelimiters(agent: unknown): OutputDelimiters | undefined {
  if (!isLlmAgent(agent)) return undefined;
  const executor: unknown = agent.codeExecutor;
  if (typeof executor !== 'object' || executor === null) return undefined;
  const delimiters: unknown = (executor as { readonly executionResultDelimiters?: unknown }).executionResultDelimiters;
  if (!Array.isArray(delimiters) || delimiters.length !== 2) return undefined;
  const [open, close] = delimiters as unknown[];
  return typeof open === 'string' && typeof close === 'string' ? [open, close] : undefined;
}
