/**
 * The mechanical summary used when the summarizer fails, times out or returns
 * nothing: the previous summary plus the first 200 characters of every
 * message, tool call and tool result, newest kept when it must be cut. It is
 * bounded and UTF-16 safe, so a turn never fails and history is never lost
 * because a summarizer did.
 */
import type { Content } from '@google/genai';
import { safeHead, truncateEnd } from '../text/truncate-text.js';
import { renderQuoted } from './render-content.js';

const LINE_LIMITS = { textChars: 200, argumentChars: 200, resultChars: 200 };

export interface FallbackSummaryInput {
  readonly previousSummary?: string | undefined;
  readonly contents: readonly Content[];
  readonly currentRequest?: string | undefined;
  readonly maxChars: number;
}

export function buildFallbackSummary(input: FallbackSummaryInput): string {
  const header =
    '(Mechanical summary: the summarizer was unavailable. Quoted lines; an indented one continues the last.)';
  const request = input.currentRequest ? `\nUser's current request: ${truncateEnd(input.currentRequest, 1_000)}` : '';
  const lines: string[] = [];
  for (const content of input.contents) {
    const block = renderQuoted(content, LINE_LIMITS);
    if (block.length > 0) lines.push(...block.split('\n').map((line) => truncateEnd(line, 240)));
  }
  const budget = Math.max(0, input.maxChars - header.length - request.length - 64);
  const previousShare = input.previousSummary ? Math.floor(budget * 0.4) : 0;
  const previous = input.previousSummary
    ? `\nEarlier summary:\n${truncateEnd(input.previousSummary, previousShare)}`
    : '';
  let remaining = budget - previous.length;
  const kept: string[] = [];
  for (let i = lines.length - 1; i >= 0 && remaining > 0; i--) {
    const line = lines[i] ?? '';
    if (line.length + 1 > remaining) break;
    kept.push(line);
    remaining -= line.length + 1;
  }
  kept.reverse();
  const omitted = lines.length - kept.length;
  const body = (omitted > 0 ? `[${omitted} older lines omitted]\n` : '') + kept.join('\n');
  return safeHead(`${header}${request}${previous}\nRecent messages:\n${body}`, input.maxChars);
}
