/**
 * Metrics of reading back what the model no longer sees (same SDK path as guard-metrics.ts):
 * - `gen_ai.context_guard.stored_answers` (counter: calls of a read-only tool answered from the
 *   stored result of the same call instead of running the tool; attribute `gen_ai.tool.name`);
 * - `gen_ai.context_guard.recall.line_reads` (counter: recall reads by line; attribute
 *   `context_guard.mode`: `pattern` or `lines`).
 */
import { lazyInstruments } from './instruments.js';

const meters = lazyInstruments({
  storedAnswers: {
    kind: 'counter',
    name: 'gen_ai.context_guard.stored_answers',
    description: 'Calls of a read-only tool answered from the stored result of the same call, without running it',
  },
  lineReads: {
    kind: 'counter',
    name: 'gen_ai.context_guard.recall.line_reads',
    description: 'Recall reads of a stored result by pattern or by line range',
  },
} as const);

/** A repeated read-only call was answered from its stored result. */
export function recordStoredAnswer(agentName: string, toolName: string): void {
  meters().storedAnswers.add(1, { 'gen_ai.agent.name': agentName, 'gen_ai.tool.name': toolName });
}

/** The recall tool read a stored result by pattern or line range. */
export function recordLineRead(agentName: string, mode: 'pattern' | 'lines'): void {
  meters().lineReads.add(1, { 'gen_ai.agent.name': agentName, 'context_guard.mode': mode });
}
