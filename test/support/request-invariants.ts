/**
 * What every request a guarded agent sends must satisfy, as plain checks over
 * the contents the model received. Each returns the violations it found (an
 * empty list when the request is fine), phrased so a failing property prints
 * what went wrong and where.
 */
import type { Content } from '@google/genai';
import { SUMMARY_MARKER } from '../../src/internal.js';

function callNames(content: Content | undefined): string[] {
  return (content?.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall.name ?? '?'] : []));
}

function responseNames(content: Content | undefined): string[] {
  return (content?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.name ?? '?'] : []));
}

const sorted = (names: string[]): string => [...names].sort().join(',');

/**
 * Every function call has its response and every response its call, by
 * position: a content with functionCall parts is immediately followed by a
 * user content whose functionResponse names are the same multiset, and a
 * content with functionResponse parts immediately follows such a call.
 */
export function pairingViolations(contents: readonly Content[]): string[] {
  const problems: string[] = [];
  contents.forEach((content, i) => {
    const calls = callNames(content);
    if (calls.length > 0) {
      const next = contents[i + 1];
      const responses = responseNames(next);
      if (!next) problems.push(`content ${i} calls [${sorted(calls)}] but nothing follows it`);
      else if (next.role !== 'user' || sorted(responses) !== sorted(calls)) {
        problems.push(
          `content ${i} calls [${sorted(calls)}] but content ${i + 1} (${next.role}) answers [${sorted(responses)}]`,
        );
      }
    }
    const responses = responseNames(content);
    if (responses.length > 0) {
      const previousCalls = callNames(contents[i - 1]);
      if (sorted(previousCalls) !== sorted(responses)) {
        problems.push(
          `content ${i} answers [${sorted(responses)}] but content ${i - 1} calls [${sorted(previousCalls)}]`,
        );
      }
    }
  });
  return problems;
}

/** Contents are not empty and start with a `user` content (where ADK and Gemini require them to start). */
export function startViolations(contents: readonly Content[]): string[] {
  if (contents.length === 0) return ['contents are empty'];
  return contents[0]?.role === 'user' ? [] : [`contents start with role '${contents[0]?.role ?? 'none'}'`];
}

/** All visible text of the contents, one string. */
export function allText(contents: readonly Content[]): string {
  return contents
    .flatMap((content) => content.parts ?? [])
    .map((part) => (typeof part.text === 'string' && part.thought !== true ? part.text : ''))
    .join('\n');
}

/**
 * Where the guard's summary is: first, after the pinned context, and after the user's message it keeps
 * (a compaction inside a turn); -1 without one.
 */
export function summaryIndex(contents: readonly Content[]): number {
  return contents.slice(0, 3).findIndex((content) => content.parts?.[0]?.text?.startsWith(SUMMARY_MARKER) === true);
}

/** The text of the content that carries the guard's summary, if any. */
export function summaryText(contents: readonly Content[]): string | undefined {
  const at = summaryIndex(contents);
  return at < 0 ? undefined : contents[at]?.parts?.[0]?.text;
}

/** Characters of a long request that must survive any cut (head+tail shrinking keeps the head). */
const HEAD_CHARS = 60;
/** Requests longer than this may legitimately be cut head+tail or restated truncated. */
const CUTTABLE_CHARS = 1_000;

/**
 * The user's current request is in the request: verbatim in a content, or
 * restated in the summary content. A request longer than 1,000 characters may
 * have been cut to fit, so its first 60 characters must be there.
 */
export function requestPresenceViolations(contents: readonly Content[], request: string): string[] {
  if (request.trim().length === 0) return [];
  const text = allText(contents);
  if (text.includes(request)) return [];
  if (request.length > CUTTABLE_CHARS && text.includes(request.slice(0, HEAD_CHARS))) return [];
  const summary = summaryText(contents);
  const shown = summary
    ? ` (not restated by the summary either; it reads ${JSON.stringify(summary.length > 400 ? `${summary.slice(0, 200)}…${summary.slice(-200)}` : summary)})`
    : '';
  return [
    `the user's current request (${request.length} chars, ${JSON.stringify(request.slice(0, 40))}) is missing from ${contents.length} contents${shown}`,
  ];
}
