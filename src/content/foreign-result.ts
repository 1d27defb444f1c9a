/**
 * Another agent's tool result as ADK renders it for this agent: inside a user content that opens with
 * `For context:`, one text part per part of the other agent's event (`[author] said: …`, `[author] called
 * tool …`), a result reading `[author] tool \`name\` returned result: <its JSON>` (`convertForeignEvent` of
 * @google/adk 2.0; a string result stands as it is), or `[author] name tool returned result: …` (what its A2A
 * client sends a remote agent, `presentAsUserMessage`). The result is text there, not a function response:
 * these words are the only way to know it.
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
const RESULT_LEAD = /^\[([^\]\n]{1,200})\] (?:tool `([^`\n]{1,200})`|([^\s`\n]{1,200}) tool) returned result: /;
/** Another agent's call as ADK renders it: `[author] called tool \`name\` with parameters: <its arguments' JSON>`. */
const CALL_LEAD = /^\[[^\]\n]{1,200}\] called tool (?:`[^`\n]{1,200}`|[^\s`\n]{1,200}) with parameters: /;
/** How ADK's rendering opens every text part after `For context:`: the author in brackets. */
const RENDERED_LEAD = /^\[([^\]\n]{1,200})\] /;
/** Another agent's own words as ADK renders them: `[author] said: <its text>`. */
const SAID_LEAD = /^\[([^\]\n]{1,200})\] said: /;

/**
 * The author a rendered part of another agent names, and its words when the part is what it said (`[author] said:
 * …`): the summarizer reads them under that agent's name (summary/render-content.ts).
 */
export function foreignSpeechIn(text: string): { readonly author: string; readonly said?: string } | undefined {
  if (text.charCodeAt(0) !== 0x5b) return undefined;
  const said = SAID_LEAD.exec(text);
  if (said) return { author: said[1] ?? '', said: text.slice(said[0].length) };
  const author = RENDERED_LEAD.exec(text)?.[1];
  return author === undefined ? undefined : { author };
}

/** The result a part of a foreign context holds, if it is one. */
export function foreignResultOf(part: Part | undefined): ForeignResult | undefined {
  const text = part?.text;
  return typeof text === 'string' && part?.thought !== true ? foreignResultIn(text) : undefined;
}

/** The result `text` (a part's text) reads as, if it has the words of one. */
function foreignResultIn(text: string): ForeignResult | undefined {
  // Every such text opens with the author in brackets: most texts are passed over by their first character.
  if (text.charCodeAt(0) !== 0x5b) return undefined;
  const lead = RESULT_LEAD.exec(text);
  if (!lead) return undefined;
  return { author: lead[1] ?? '', tool: lead[2] ?? lead[3] ?? '', lead: lead[0], text: text.slice(lead[0].length) };
}

/**
 * The JSON another agent's rendered result or call holds, after the words that lead to it (`foreignResultIn`, or a
 * call's `… with parameters: `): read back from PostgreSQL's jsonb, a call's arguments come with their keys in
 * another order too (the forty-fifth outside trial), so the fingerprint reads both forms as JSON.
 */
export function foreignJsonIn(text: string): { readonly lead: string; readonly text: string } | undefined {
  if (text.charCodeAt(0) !== 0x5b) return undefined;
  const result = foreignResultIn(text);
  if (result) return result;
  const lead = CALL_LEAD.exec(text)?.[0];
  return lead === undefined ? undefined : { lead, text: text.slice(lead.length) };
}

/**
 * Whether `content` is another agent's events as ADK renders them, every text part after the first opening with
 * its author in brackets (a part ADK copied as it was, an image, is not text), holding at least one of its tool
 * results. A user's own message that opens with `For context:` and quotes such words is not told apart.
 */
export function hasForeignResult(content: Content | undefined): boolean {
  if (!isForeignContext(content)) return false;
  const parts = content?.parts ?? [];
  let results = 0;
  for (let i = 1; i < parts.length; i++) {
    const text = parts[i]?.text;
    if (typeof text !== 'string' || parts[i]?.thought === true) continue;
    if (!RENDERED_LEAD.test(text)) return false;
    if (foreignResultOf(parts[i]) !== undefined) results++;
  }
  return results > 0;
}
