/**
 * The application's answers as durable facts. A long-running tool's final answer, a user's choice or a
 * confirmation comes from the application, not from a tool the agent ran: it is the user's word on a pending
 * step. Left to the summarizer's prose it is gone once a summary drops it (review 24: a deploy's result was in
 * the request that answered it and in no later one). Each answer among the contents a summary covers, known by
 * its key (content/answer-key.ts), is kept verbatim as a fact marked like one the user asked to be kept.
 */
import type { Content } from '@google/genai';
import { answerKeyOfJson, responseJson } from '../content/answer-key.js';
import { MAX_FACT_CHARS, type FactCandidate } from './durable-facts.js';

/** An answer longer than this is data, not a fact: it is left to the summary and the recall tool. */
const MAX_ANSWER_JSON_CHARS = 20_000;

/** Facts of the responses in `contents` whose key is one of the application's answers (`keys`), in order. */
export function answerFacts(contents: readonly Content[], keys: readonly string[]): FactCandidate[] {
  if (keys.length === 0) return [];
  const wanted = new Set(keys);
  const facts: FactCandidate[] = [];
  for (const content of contents)
    for (const part of content.parts ?? []) {
      const response = part.functionResponse;
      if (!response) continue;
      const json = responseJson(response.response);
      if (json === undefined || json.length > MAX_ANSWER_JSON_CHARS) continue;
      if (!wanted.has(answerKeyOfJson(response.name, json))) continue;
      const text = factText(`The application answered ${response.name ?? 'a call'}: `, json, response.response);
      if (text !== undefined) facts.push({ text, asked: true });
    }
  return facts;
}

/** Scalar fields of an answer shown when the whole does not fit: a field's value is shown whole or not at all. */
const MAX_FIELD_CHARS = 80;

/**
 * The fact, whole: the answer's JSON when it fits; else its top-level scalar fields that fit, each whole (a cut
 * answer could keep a long log and lose the result after it); else none, left to the summary and the recall tool.
 */
function factText(head: string, json: string, response: unknown): string | undefined {
  if (head.length + json.length <= MAX_FACT_CHARS) return head + json;
  if (typeof response !== 'object' || response === null || Array.isArray(response)) return undefined;
  const fields: string[] = [];
  let length = head.length + 2;
  for (const [key, value] of Object.entries(response as Record<string, unknown>)) {
    if (value !== null && typeof value === 'object') continue;
    const field = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
    if (field.length > MAX_FIELD_CHARS || length + field.length + 1 > MAX_FACT_CHARS - 24) continue;
    fields.push(field);
    length += field.length + 1;
  }
  return fields.length > 0 ? `${head}{${fields.join(',')}} (fields shortened)` : undefined;
}
