/**
 * ADK sends a code run's output as a user's text only for an agent with a code executor, between that
 * executor's `executionResultDelimiters`, and only from an event that holds nothing but the run's result
 * (`CodeExecutionRequestProcessor`, `convertCodeExecutionParts`, @google/adk 2.0): the request's contents in that
 * shape whose output is such an event's are marked, so the core reads them as outputs and never a user's message
 * in the same shape (content/code-output.ts; review 22: one pasted to an agent with an executor was masked in
 * its own turn).
 */
import { createHash } from 'node:crypto';
import { isLlmAgent, type Context, type LlmRequest } from '@google/adk';
import { markRenderedCodeOutputs, type OutputDelimiters } from '../../content/code-output.js';
import { BoundedMap } from '../../collections/bounded-map.js';
import { scopeOfContext } from '../runtime/session-scope.js';
import { resumeAt, scanEnd, type EventScan } from '../runtime/event-scan.js';

/** The parts of a session event read here. */
interface RunEvent {
  readonly id?: string | undefined;
  readonly content?: { readonly parts?: readonly { readonly codeExecutionResult?: { readonly output?: string } }[] };
}

interface Scan extends EventScan {
  /** A digest of each output (`digestOf`): the outputs themselves would outlive their sessions here. */
  readonly outputs: Set<string>;
}

/** Characters of an output's head and of its tail its digest reads. */
const SAMPLE_CHARS = 512;

/**
 * An output's digest: its length and the SHA-256 of its head and tail, so each call reads a few hundred characters of
 * every output in the history, not all of them. A message of the session's own user that shares an output's length,
 * head and tail is read as that output; no other session's outputs are ever compared.
 */
const digestOf = (output: string): string => {
  const sample =
    output.length <= 2 * SAMPLE_CHARS ? output : output.slice(0, SAMPLE_CHARS) + output.slice(-SAMPLE_CHARS);
  return `${output.length}:${createHash('sha256').update(sample).digest('base64')}`;
};

/** Sessions remembered at most; the oldest are read afresh. */
const MAX_SESSIONS = 10_000;

/** By session, read from where the last list ended (adk/runtime/event-scan.ts). */
const scans = new BoundedMap<string, Scan>(MAX_SESSIONS);

/** Marks the request's code run outputs ADK sent as text, before anything reads its contents. */
export function markCodeOutputs(context: Context, request: LlmRequest): void {
  const delimiters = executorDelimiters(context.invocationContext.agent);
  if (!delimiters || !request.contents) return;
  const events: readonly RunEvent[] = context.invocationContext.session.events;
  const outputs = outputsOf(events, scopeOfContext(context));
  markRenderedCodeOutputs(request.contents, delimiters, (output) => outputs.has(digestOf(output)));
}

/** The digests of the outputs ADK renders as text from `events`: those of events holding nothing but a run's result. */
function outputsOf(events: readonly RunEvent[], key: string): ReadonlySet<string> {
  const known = scans.get(key);
  const from = resumeAt(events, known);
  const outputs = from > 0 && known ? known.outputs : new Set<string>();
  for (let i = from; i < events.length; i++) {
    const parts = events[i]?.content?.parts;
    const result = parts?.length === 1 ? parts[0]?.codeExecutionResult : undefined;
    // As ADK writes it: an absent output is the text "undefined" (`convertCodeExecutionParts`).
    if (result) outputs.add(digestOf(`${result.output}`));
  }
  scans.set(key, { ...scanEnd(events), outputs });
  return outputs;
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
