/**
 * An answer the application sent (pipeline input `applicationAnswers`) that lies inside what a stored summary covers
 * though the summary never read it. A turn that loaded the session before the answer came compacts and stores a
 * summary past the answer's call; every later request has the answer right after the call, inside that summary (the
 * twenty-first outside trial: two replicas, the answer sent to one while the other ran a turn; the model saw the
 * answer once and never again, and no summary had read it). Such a summary is applied up to the call instead
 * (locate-stored.ts). Pure; linear in the contents only while an answer is unread.
 */
import type { Content } from '@google/genai';
import { answerKey } from '../content/answer-key.js';

/** Ids read back at most in a summary record: more answers than a session is expected to wait on. */
const MAX_READ = 512;

/** The responses in `contents[from, to)` whose key is `wanted` (found ones are removed from it), where found. */
function findIn(
  contents: readonly Content[],
  from: number,
  to: number,
  wanted: Set<string>,
  names: ReadonlySet<string>,
): { at: number; key: string }[] {
  const found: { at: number; key: string }[] = [];
  for (let i = from; i < to && wanted.size > 0; i++)
    for (const part of contents[i]?.parts ?? []) {
      const response = part.functionResponse;
      // Only a response of a tool an answer came for is hashed: the others can be large.
      if (!response || !names.has(response.name ?? '')) continue;
      const key = answerKey(response.name, response.response);
      if (key !== undefined && wanted.delete(key)) found.push({ at: i, key });
    }
  return found;
}

/** ADK places a response right after its call: the content before it, when it holds a call. */
function callOf(contents: readonly Content[], at: number): number | undefined {
  return contents[at - 1]?.parts?.some((part) => part.functionCall) ? at - 1 : undefined;
}

/** A response the application sent: its tool, and its key (content/answer-key.ts). */
export interface ApplicationAnswer {
  readonly name: string;
  readonly key: string;
}

/** The keys of `answers` not in `seen`, and their tools. */
function unreadOf(answers: readonly ApplicationAnswer[], seen: readonly string[]) {
  const unread = answers.filter((answer) => !seen.includes(answer.key));
  return { keys: new Set(unread.map((answer) => answer.key)), names: new Set(unread.map((answer) => answer.name)) };
}

/**
 * The earliest call, before `covered`, whose application answer also lies before `covered` and is not among what the
 * summary read (`seen`); `undefined` when there is none.
 */
export function unseenAnswerCall(
  contents: readonly Content[],
  covered: number,
  answers: readonly ApplicationAnswer[],
  seen: readonly string[],
): number | undefined {
  const { keys, names } = unreadOf(answers, seen);
  // An answer after the watermark is sent whole already: looked for there first, it is usually near the end.
  findIn(contents, covered, contents.length, keys, names);
  if (keys.size === 0) return undefined;
  let earliest: number | undefined;
  for (const { at } of findIn(contents, 0, covered, keys, names)) {
    const call = callOf(contents, at);
    if (call !== undefined && (earliest === undefined || call < earliest)) earliest = call;
  }
  return earliest;
}

/** The keys of `answers` whose response lies in `contents[0, covered)`, added to `seen` (the latest kept). */
export function answersRead(
  contents: readonly Content[],
  covered: number,
  answers: readonly ApplicationAnswer[],
  seen: readonly string[],
): string[] {
  const { keys, names } = unreadOf(answers, seen);
  const read = findIn(contents, 0, covered, keys, names).map((found) => found.key);
  return [...seen, ...read].slice(-MAX_READ);
}
