/**
 * Another agent's tool result as ADK renders it for this agent: inside a user content that opens with
 * `For context:`, one text part per part of the other agent's event, a result reading
 * `[author] tool \`name\` returned result: <its JSON>` (`convertForeignEvent` of @google/adk 2.0; a
 * string result stands as it is). The result is text there, not a function response: these words are
 * the only way to know it.
 */
import type { Content, Part } from '@google/genai';
import { isForeignContext } from './content-shape.js';

interface ForeignResult {
  readonly author: string;
  readonly tool: string;
  /** The words before the result, as ADK wrote them. */
  readonly lead: string;
  /** The result as ADK wrote it. */
  readonly text: string;
}

/** Agent names are identifiers and tool names hold no backtick: the lead ends at the first `returned result: `. */
const RESULT_LEAD = /^\[([^\]\n]{1,200})\] tool `([^`\n]{1,200})` returned result: /;

/** The result a part of a foreign context holds, if it is one. */
export function foreignResultOf(part: Part | undefined): ForeignResult | undefined {
  const text = part?.text;
  if (typeof text !== 'string' || part?.thought === true) return undefined;
  const lead = RESULT_LEAD.exec(text);
  if (!lead) return undefined;
  return { author: lead[1] ?? '', tool: lead[2] ?? '', lead: lead[0], text: text.slice(lead[0].length) };
}

/** Whether `content` is another agent's events holding at least one of its tool results. */
export function hasForeignResult(content: Content | undefined): boolean {
  return isForeignContext(content) && (content?.parts?.some((part) => foreignResultOf(part) !== undefined) ?? false);
}
