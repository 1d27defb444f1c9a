/**
 * What a summary covers, as content indexes: the contents before its
 * watermark `covered`, except the one at `keptAt` (the user's message of a
 * turn whose older tool steps were summarized while it was in flight). The
 * model is sent `the kept message + [summary] + contents from the watermark
 * on` (summary/inject-summary.ts `summaryPosition`), so the message it is
 * answering is never summarized away mid-turn.
 */
import type { Content } from '@google/genai';
import { latestUserRequestIndex } from '../content/content-shape.js';

export interface SummaryCoverage {
  readonly covered: number;
  readonly keptAt?: number | undefined;
}

/**
 * The contents a summary leaves verbatim, in order: the kept message, then everything from the watermark.
 * Given the contents' token counts instead, the counts of those contents.
 */
export function uncoveredContents<T = Content>(contents: readonly T[], coverage: SummaryCoverage): T[] {
  const rest = contents.slice(coverage.covered);
  const kept = coverage.keptAt === undefined ? undefined : contents[coverage.keptAt];
  return kept !== undefined ? [kept, ...rest] : rest;
}

/** Tokens of the contents a summary leaves verbatim. */
export function uncoveredTokens(tokens: readonly number[], coverage: SummaryCoverage): number {
  let total = coverage.keptAt === undefined ? 0 : (tokens[coverage.keptAt] ?? 0);
  for (let i = coverage.covered; i < tokens.length; i++) total += tokens[i] ?? 0;
  return total;
}

/** Heuristic tokens of a request: fixed part, summary and the contents it leaves. */
export function viewEstimate(
  fixedTokens: number,
  summaryTokens: number,
  viewTokens: readonly number[],
  coverage: SummaryCoverage,
): number {
  return fixedTokens + summaryTokens + uncoveredTokens(viewTokens, coverage);
}

/**
 * Indexes a compaction from `before` to `after` summarizes, oldest first: the
 * previously kept message once it is no longer kept, then the contents between
 * the two watermarks except the newly kept one.
 */
export function newlyCovered(before: SummaryCoverage, after: SummaryCoverage): number[] {
  const indexes: number[] = [];
  if (before.keptAt !== undefined && before.keptAt !== after.keptAt) indexes.push(before.keptAt);
  for (let i = before.covered; i < after.covered; i++) if (i !== after.keptAt) indexes.push(i);
  return indexes;
}

/** Tokens of the in-flight turn's user message when a compaction keeps it: not covered yet, or already the kept one. */
export function inFlightRequestTokens(
  contents: readonly Content[],
  tokens: readonly number[],
  coverage: SummaryCoverage,
): number {
  const request = latestUserRequestIndex(contents);
  return request >= 0 && (request >= coverage.covered || request === coverage.keptAt) ? (tokens[request] ?? 0) : 0;
}
