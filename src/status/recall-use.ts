/**
 * How an agent read back what the model no longer sees, counted from a session's events (the
 * answers are there, so replicas and concurrent turns cannot lose a count): repeated read-only
 * calls answered from the stored result (each a tool call not run), and recall reads of a stored
 * result by pattern or line range (recall/search-lines.ts); and the results offloaded whole to an artifact.
 */
import { isPlainObject } from '../config/plain-object.js';
import { STORED_ANSWER_KEY } from '../recall/repeat-call.js';
import { OFFLOAD_HANDLE_KEY } from '../offload/artifact-handle.js';

interface RecallUse {
  /** Calls of a read-only tool answered from the stored result of the same call: tool calls not run. */
  readonly storedAnswers: number;
  /** Recall reads of an event or a stored result by `pattern` or `lines`. */
  readonly recallLineReads: number;
  /** Calls of the `context_status` tool (`budgetLine`): budget figures asked on demand. */
  readonly contextStatusCalls: number;
  /** Tool results cut and stored whole as an artifact: their response carries the artifact's handle. */
  readonly offloadedResults: number;
}

export const NO_RECALL_USE: RecallUse = Object.freeze({
  storedAnswers: 0,
  recallLineReads: 0,
  contextStatusCalls: 0,
  offloadedResults: 0,
});

/** The name of the guard's status tool (adk/tools/context-status-tool.ts), as its responses carry it. */
const CONTEXT_STATUS_RESPONSE = 'context_status';

/** The answer of a recall read by lines: `total_lines`, and `matches` (pattern) or `from_line` (range). */
function isLineRead(response: Record<string, unknown>): boolean {
  return (
    typeof response['total_lines'] === 'number' &&
    (typeof response['matches'] === 'number' || typeof response['from_line'] === 'number')
  );
}

/** Counts by agent (the tool result event's author). Events of any shape are read defensively. */
export function countRecallUse(events: readonly unknown[] | undefined): Map<string, RecallUse> {
  const byAgent = new Map<string, RecallUse>();
  for (const event of events ?? []) {
    if (typeof event !== 'object' || event === null) continue;
    const { author, content } = event as { author?: unknown; content?: { parts?: unknown } };
    if (typeof author !== 'string' || !Array.isArray(content?.parts)) continue;
    for (const part of content.parts as unknown[]) {
      const call = (part as { functionResponse?: { name?: unknown; response?: unknown } } | null)?.functionResponse;
      const response = call?.response;
      if (!isPlainObject(response)) continue;
      const stored = STORED_ANSWER_KEY in response ? 1 : 0;
      const lineRead = isLineRead(response) ? 1 : 0;
      const statusCall = call?.name === CONTEXT_STATUS_RESPONSE ? 1 : 0;
      const offloaded = OFFLOAD_HANDLE_KEY in response ? 1 : 0;
      if (stored + lineRead + statusCall + offloaded === 0) continue;
      const use = byAgent.get(author) ?? NO_RECALL_USE;
      byAgent.set(author, {
        storedAnswers: use.storedAnswers + stored,
        recallLineReads: use.recallLineReads + lineRead,
        contextStatusCalls: use.contextStatusCalls + statusCall,
        offloadedResults: use.offloadedResults + offloaded,
      });
    }
  }
  return byAgent;
}
