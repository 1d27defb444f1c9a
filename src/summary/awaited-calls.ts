/**
 * Calls still awaiting the application's answer when a summary covers them: a long-running tool's call (its final
 * answer comes turns later) or a call waiting for the user's confirmation. Left to the summarizer's prose, a pending
 * step is gone once a summary drops it (review 24: "is a job pending?" asked after two summaries, the request held no
 * trace of the deploy started at turn 2). A summary record lists the pending calls it covers; the summary content
 * shows those still pending on each call (the shell reads which from the session's events), so an answer that came
 * takes the line away at once, and no stored fact has to be retracted.
 */
import type { Content } from '@google/genai';
import { answerKey, answerKeyOfJson, responseJson } from '../content/answer-key.js';
import { truncateEnd } from '../text/truncate-text.js';
import { GUARD_HEADINGS } from '../text/guard-markers.js';

/**
 * A call the application has not answered yet, as the shell read it from the session's events: kept as its key and
 * cut text (`pendingCallOf`), not the call's own arguments, so a session waiting on a call does not keep them alive.
 */
export interface PendingCall {
  /** The id the answer will carry (a confirmation's own call id for a confirmation). */
  readonly id: string;
  /** The tool the model called. */
  readonly name: string;
  /** The call's name and arguments hashed, to find it among the request's contents (ADK strips the ids there). */
  readonly key: string;
  /** Of the agent's calls with that key, how many came after it: its place among equal calls, from the end. */
  readonly after: number;
  /** The call as its line shows it: the name and the arguments cut. */
  readonly head: string;
  /** The response the tool gave while the call is pending (a long-running tool's first response), cut. */
  readonly sofar?: string | undefined;
  /** The call waits for the user's confirmation, not for a long-running tool's answer. */
  readonly confirmation?: boolean | undefined;
}

/** The pending call `name(args)` with answer id `id`; `undefined` when its arguments cannot be written as JSON. */
export function pendingCallOf(
  id: string,
  name: string,
  args: unknown,
  after = 0,
  confirmation?: boolean,
): PendingCall | undefined {
  const json = responseJson(args ?? {});
  if (json === undefined) return undefined;
  const head = `${name} ${truncateEnd(json, MAX_ARGS_CHARS)}`;
  const key = answerKeyOfJson(name, json);
  return { id, name, key, after, head, ...(confirmation ? { confirmation } : {}) };
}

/** `call` with the response the tool gave while it is pending. */
export function withResponseSoFar(call: PendingCall, response: unknown): PendingCall {
  const json = responseJson(response);
  return { ...call, sofar: json === undefined ? undefined : truncateEnd(json, MAX_SOFAR_CHARS) };
}

/** A pending call a summary covers: the id its answer will carry, and its line. */
export interface AwaitedCall {
  readonly id: string;
  readonly text: string;
}

/** Pending calls listed at most in one summary, and a line's longest parts. */
const MAX_AWAITED = 8;
const MAX_ARGS_CHARS = 120;
const MAX_SOFAR_CHARS = 160;
const MAX_ID_CHARS = 256;
const MAX_TEXT_CHARS = 400;

/** The pending calls whose call is among `contents[0, covered)`, in the order they were made; `undefined` if none. */
export function awaitedIn(
  contents: readonly Content[],
  covered: number,
  pending: readonly PendingCall[],
): AwaitedCall[] | undefined {
  // Written within what the record's decoder reads back (decodeAwaited), or the whole list would read as absent.
  const listable = pending.filter((call) => call.id.length <= MAX_ID_CHARS);
  const found = pendingCallsIn(contents, covered, listable).map((call) => ({
    id: call.id,
    text: truncateEnd(lineOf(call), MAX_TEXT_CHARS),
  }));
  return found.length > 0 ? found.slice(-MAX_AWAITED) : undefined;
}

/** Of `pending`, the calls made among `contents[0, covered)`, in the order made. */
function pendingCallsIn(contents: readonly Content[], covered: number, pending: readonly PendingCall[]): PendingCall[] {
  return pendingCallPlaces(contents, pending)
    .filter((found) => found.at < covered)
    .map((found) => found.call);
}

/**
 * Where each of `pending` is among `contents`, in the order made. The request holds no call ids, so a call is known by
 * its name and arguments and, among equal calls, by how many came after it (`after`), counted from the request's end
 * (ADK may leave earlier events out, never later ones).
 */
export function pendingCallPlaces(
  contents: readonly Content[],
  pending: readonly PendingCall[],
): { readonly call: PendingCall; readonly at: number }[] {
  if (pending.length === 0) return [];
  const byPlace = new Map(pending.map((call) => [`${call.key}\u0000${call.after}`, call]));
  const names = new Set(pending.map((call) => call.name));
  const seen = new Map<string, number>();
  const found: { call: PendingCall; at: number }[] = [];
  for (let at = contents.length - 1; at >= 0; at--) {
    const parts = contents[at]?.parts ?? [];
    for (let index = parts.length - 1; index >= 0; index--) {
      const call = parts[index]?.functionCall;
      // Only a call of a pending call's tool is hashed: the others' arguments can be large.
      if (!call || !names.has(call.name ?? '')) continue;
      const key = answerKey(call.name ?? '', call.args ?? {});
      if (key === undefined) continue;
      const place = seen.get(key) ?? 0;
      seen.set(key, place + 1);
      const waiting = byPlace.get(`${key}\u0000${place}`);
      if (waiting) found.push({ call: waiting, at });
    }
  }
  return found.reverse();
}

function lineOf(call: PendingCall): string {
  if (call.confirmation) return `${call.head}: awaiting the user's confirmation`;
  return call.sofar === undefined ? `${call.head}: no answer yet` : `${call.head}: its response so far: ${call.sofar}`;
}

/** The section of the summary content: the awaited calls still `pending` (all when that is unknown). */
export function renderAwaited(
  awaited: readonly AwaitedCall[] | undefined,
  pending: readonly { readonly id: string }[] | undefined,
): string {
  const still = (awaited ?? []).filter((call) => pending === undefined || pending.some((each) => each.id === call.id));
  if (still.length === 0) return '';
  const lines = still.map((call) => `- ${call.text}`).join('\n');
  return `\n\n## ${GUARD_HEADINGS.awaited}\n${lines}`;
}

/** A stored list read back: each entry whole, or the list reads as absent (left to the summarizer's own words). */
export function decodeAwaited(value: unknown): AwaitedCall[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_AWAITED) return undefined;
  const calls: AwaitedCall[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { id, text } = item as Record<string, unknown>;
    if (typeof id !== 'string' || typeof text !== 'string') return undefined;
    if (id.length === 0 || id.length > MAX_ID_CHARS || text.length === 0 || text.length > MAX_TEXT_CHARS)
      return undefined;
    calls.push({ id, text });
  }
  return calls;
}
