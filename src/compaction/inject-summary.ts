/**
 * Builds the request contents that replace a compacted history:
 * [summary (+ continuation)] + the kept tail, verbatim.
 *
 * The summary goes first as a `user` content, which is where ADK and Gemini
 * require contents to start. The continuation restates the user's current
 * request only when the tail no longer contains it (a compaction in the middle
 * of a tool chain), so the agent keeps working instead of asking again.
 */
import type { Content } from '@google/genai';
import { truncateEnd } from '../text/truncate-text.js';
import { renderFacts, type DurableFact } from '../memory/durable-facts.js';
import { isUserRequest } from './content-shape.js';

export const SUMMARY_MARKER = '[context_guard summary]';

export interface InjectableSummary {
  readonly text: string;
  readonly currentRequest?: string | undefined;
  readonly compactions: number;
  readonly facts?: readonly DurableFact[] | undefined;
}

/** Options of the summary content that do not depend on the summary itself. */
export interface SummaryContentOptions {
  /** Name of the recall tool when the agent has it: the summary says older turns can be searched. */
  readonly recallToolName?: string | undefined;
}

/** The continuation sentence, or an empty string when the tail already holds the request. */
export function continuationFor(summary: InjectableSummary, tail: readonly Content[]): string {
  if (!summary.currentRequest || tail.some((content) => isUserRequest(content))) return '';
  return (
    '\n\nThe conversation was compacted into the summary above. ' +
    `The user's current request is: "${truncateEnd(summary.currentRequest, 4_000)}". ` +
    'Continue working on it from where the work stands; do not ask the user to repeat it.'
  );
}

/** The single content that carries the summary. */
export function summaryContent(summary: InjectableSummary, tail: readonly Content[], options: SummaryContentOptions = {}): Content {
  const header = `${SUMMARY_MARKER} Summary of the earlier conversation (older messages are not shown; compactions so far: ${summary.compactions}):\n\n`;
  const recall = options.recallToolName
    ? `\n\nThe original messages are not lost: call \`${options.recallToolName}\` with a query (words, identifiers) to search them, then with an event_id to read one, whenever you need an exact detail that is not above.`
    : '';
  const text = header + summary.text + renderFacts(summary.facts ?? []) + recall + continuationFor(summary, tail);
  return { role: 'user', parts: [{ text }] };
}

/** `[summary] + tail`. The tail's content objects are reused, not copied. */
export function injectSummary(summary: InjectableSummary, tail: readonly Content[], options: SummaryContentOptions = {}): Content[] {
  return [summaryContent(summary, tail, options), ...tail];
}
