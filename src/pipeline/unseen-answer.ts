/**
 * An answer the application sent (pipeline input `applicationAnswers`) that lies inside what a stored summary covers
 * though the summary never read it. A turn that loaded the session before the answer came compacts and stores a
 * summary past the answer's call; every later request has the answer right after the call, inside that summary (the
 * twenty-first outside trial: two replicas, the answer sent to one while the other ran a turn; the model saw the
 * answer once and never again, and no summary had read it). Such a summary is applied up to the call instead
 * (locate-stored.ts). Answers are counted by key: two equal answers (two approvals) are two, the first in the
 * history the one read first (review 16). Pure; linear in the covered contents only while an answer is unread.
 */
import type { Content } from '@google/genai';
import { answerKey } from '../content/answer-key.js';

/** Keys read back at most in a summary record: more answers than a session is expected to wait on. */
const MAX_READ = 512;

/** A response the application sent: its tool, and its key (content/answer-key.ts). */
export interface ApplicationAnswer {
  readonly name: string;
  readonly key: string;
}

function countsOf(keys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** The answers some of whose copies no summary read: by key, how many were read; and their tools. */
function unreadOf(answers: readonly ApplicationAnswer[], seen: readonly string[]) {
  const read = countsOf(seen);
  const sent = countsOf(answers.map((answer) => answer.key));
  const unread = new Map<string, number>();
  const names = new Set<string>();
  for (const answer of answers)
    if ((sent.get(answer.key) ?? 0) > (read.get(answer.key) ?? 0)) {
      unread.set(answer.key, read.get(answer.key) ?? 0);
      names.add(answer.name);
    }
  return { unread, names, sent };
}

/** Each response in `contents[0, covered)` of an unread answer's tool and key, in order. */
function* responsesIn(
  contents: readonly Content[],
  covered: number,
  names: ReadonlySet<string>,
  keys: ReadonlyMap<string, number>,
) {
  for (let at = 0; at < covered; at++)
    for (const part of contents[at]?.parts ?? []) {
      const response = part.functionResponse;
      // Only a response of a tool an answer came for is hashed: the others can be large.
      if (!response || !names.has(response.name ?? '')) continue;
      const key = answerKey(response.name, response.response);
      if (key !== undefined && keys.has(key)) yield { at, key };
    }
}

/** ADK places a response right after its call: the content before it, when it holds a call. */
function callOf(contents: readonly Content[], at: number): number | undefined {
  return contents[at - 1]?.parts?.some((part) => part.functionCall) ? at - 1 : undefined;
}

/**
 * The call of the first answer in `contents[0, covered)` that the summary did not read (`seen`: the keys it read,
 * one per copy); `undefined` when there is none. Where more copies of an answer lie there than it read, which of
 * them it read cannot be told (two equal approvals, the later one answered first): the call of the first copy, so
 * that none it did not read is stripped (review 46).
 */
export function unseenAnswerCall(
  contents: readonly Content[],
  covered: number,
  answers: readonly ApplicationAnswer[],
  seen: readonly string[],
): number | undefined {
  const { unread, names } = unreadOf(answers, seen);
  if (unread.size === 0) return undefined;
  // Per key: the copies inside, and the call of the first copy that follows its call.
  const copies = new Map<string, { count: number; call: number | undefined }>();
  for (const { at, key } of responsesIn(contents, covered, names, unread)) {
    const known = copies.get(key) ?? { count: 0, call: undefined };
    copies.set(key, { count: known.count + 1, call: known.call ?? callOf(contents, at) });
  }
  let first: number | undefined;
  for (const [key, { count, call }] of copies)
    if (count > (unread.get(key) ?? 0) && call !== undefined && (first === undefined || call < first)) first = call;
  return first;
}

/**
 * Where the responses of answers the summary did not read (`seen`: the keys it read, one per copy) lie in
 * `contents[0, length)`: the copies past those read, in order.
 */
export function unseenAnswersAt(
  contents: readonly Content[],
  length: number,
  answers: readonly ApplicationAnswer[],
  seen: readonly string[],
): number[] {
  const { unread, names } = unreadOf(answers, seen);
  if (unread.size === 0) return [];
  const met = new Map<string, number>();
  const at: number[] = [];
  for (const found of responsesIn(contents, length, names, unread)) {
    const copy = (met.get(found.key) ?? 0) + 1;
    met.set(found.key, copy);
    if (copy > (unread.get(found.key) ?? 0)) at.push(found.at);
  }
  return at;
}

/** `seen` with the answers that lie in `contents[0, covered)` and it had not read, one key per copy (the latest kept). */
export function answersRead(
  contents: readonly Content[],
  covered: number,
  answers: readonly ApplicationAnswer[],
  seen: readonly string[],
): string[] {
  const { unread, names, sent } = unreadOf(answers, seen);
  if (unread.size === 0) return [...seen];
  const met = countsOf([...responsesIn(contents, covered, names, unread)].map((found) => found.key));
  const read: string[] = [];
  for (const [key, before] of unread) {
    const now = Math.min(met.get(key) ?? 0, sent.get(key) ?? 0);
    for (let copy = before; copy < now; copy++) read.push(key);
  }
  return [...seen, ...read].slice(-MAX_READ);
}
