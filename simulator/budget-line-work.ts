/**
 * Issue 29, the budget the model sees (`budgetLine`), as tool work: each turn the model fetches two
 * parts of the gateway logs, then answers with a digest of them. Every content it writes quotes the percentage of the
 * `[context budget]` line its request ended with (or says it was shown none), so the run shows the
 * model read the line it was sent, not one the simulator computed. The facts the claims are
 * checked on: the requests as the model received them, the summary requests, the stored session
 * and the guard's `status()`.
 */
import type { Event } from '@google/adk';
import type { Content, Part } from '@google/genai';
import { logText } from '../src/testing/index.js';

/** How the line starts (src/budget/budget-line.ts, `budgetLineText`). */
export const BUDGET_LINE_MARK = '[context budget]';
const SHOWN_PERCENT = /^\[context budget\][^(]*\((\d+)%\)/;
const QUOTED_PERCENT = /Budget line seen: (\d+)%/;
export const GATEWAY_LOGS_TOOL = 'fetch_logs';
/** Log parts fetched per turn, one after the other. */
const FETCHES_PER_TURN = 2;
/** Characters of the digest each answer carries: the history grows past what masking frees, so the guard compacts too. */
const DIGEST_CHARS = 2_000;

/** The line's text when `contents` ends with one. */
function lineAtEnd(contents: readonly Content[]): string | undefined {
  const last = contents.at(-1);
  const text = last?.role === 'user' && last.parts?.length === 1 ? last.parts[0]?.text : undefined;
  return text?.startsWith(BUDGET_LINE_MARK) ? text : undefined;
}

/** Function responses after the turn's user message: the fetches done this turn. */
function fetchesThisTurn(contents: readonly Content[], message: string): number {
  let start = -1;
  contents.forEach((content, i) => {
    if (content.role === 'user' && content.parts?.some((part) => part.text === message)) start = i;
  });
  if (start < 0) return 0;
  return contents
    .slice(start + 1)
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionResponse).length;
}

/** What the model says it was shown: the line's percentage, and whether the line warned of a compaction. */
function note(line: string | undefined): string {
  const percent = line ? SHOWN_PERCENT.exec(line)?.[1] : undefined;
  if (percent === undefined) return 'No budget line in my request.';
  return `Budget line seen: ${percent}%${line?.includes('compaction near') ? ', compaction near' : ''}.`;
}

/** The model's content for a call of `turn`: fetch the turn's next log part, or answer. */
export function budgetLineAnswer(turn: number, message: string, contents: readonly Content[]): Content {
  const seen = note(lineAtEnd(contents));
  const done = fetchesThisTurn(contents, message);
  if (done >= FETCHES_PER_TURN)
    return { role: 'model', parts: [{ text: `Turn ${turn} done. ${seen} Digest:\n${logText(DIGEST_CHARS, turn)}` }] };
  const part = (turn - 1) * FETCHES_PER_TURN + done + 1;
  return { role: 'model', parts: [{ text: seen }, { functionCall: { name: GATEWAY_LOGS_TOOL, args: { part } } }] };
}

/** What a budget-line run did, from what the model received, the stored session and `status()`. */
export interface BudgetLineFacts {
  /** Requests the agent's model received (summary requests apart). */
  readonly agentCalls: number;
  /** Of those, the ones whose last content is the line. */
  readonly endingWithLine: number;
  /** Of those, the ones holding the line anywhere. */
  readonly holdingLine: number;
  /** The percentage each line showed, in request order. */
  readonly percentsShown: readonly number[];
  /** The percentage each of the model's stored contents quoted, in order. */
  readonly percentsQuoted: readonly number[];
  /** Stored session events holding the line's text. */
  readonly storedEventsWithLine: number;
  /** The stored session state holds the line's text. */
  readonly stateHoldsLine: boolean;
  /** Summary requests (the agent's own model's and a summarizer's prompts), and those holding the line. */
  readonly summaryRequests: number;
  readonly summaryRequestsWithLine: number;
  /** Compactions plus maskings of the run: the line was sent while the guard reduced the context. */
  readonly reductions: number;
  /** `status()` of the agent (guard runs only). */
  readonly status?:
    | { readonly budgetLines: number; readonly budgetLineTokens: number; readonly contextStatusCalls: number }
    | undefined;
}

const textParts = (parts: readonly Part[]): string[] =>
  parts.map((part) => part.text).filter((text): text is string => typeof text === 'string');

export function budgetLineFacts(input: {
  readonly agentRequests: readonly { readonly contents: readonly Content[] }[];
  /** Summary requests as text: the contents sent, or the summarizer's prompt. */
  readonly summaryTexts: readonly string[];
  readonly events: readonly Event[];
  readonly state: Readonly<Record<string, unknown>> | undefined;
  readonly reductions: number;
  readonly status?: BudgetLineFacts['status'];
}): BudgetLineFacts {
  const lines = input.agentRequests.map((request) => lineAtEnd(request.contents));
  const quoted = input.events
    .filter((event) => event.author !== 'user' && event.content?.role === 'model')
    .flatMap((event) => textParts(event.content?.parts ?? []))
    .map((text) => QUOTED_PERCENT.exec(text)?.[1])
    .filter((percent): percent is string => percent !== undefined);
  return {
    agentCalls: input.agentRequests.length,
    endingWithLine: lines.filter((line) => line !== undefined).length,
    holdingLine: input.agentRequests.filter((request) => JSON.stringify(request.contents).includes(BUDGET_LINE_MARK))
      .length,
    percentsShown: lines.flatMap((line) => (line ? [Number(SHOWN_PERCENT.exec(line)?.[1])] : [])),
    percentsQuoted: quoted.map(Number),
    storedEventsWithLine: input.events.filter((event) => JSON.stringify(event).includes(BUDGET_LINE_MARK)).length,
    stateHoldsLine: JSON.stringify(input.state ?? {}).includes(BUDGET_LINE_MARK),
    summaryRequests: input.summaryTexts.length,
    summaryRequestsWithLine: input.summaryTexts.filter((text) => text.includes(BUDGET_LINE_MARK)).length,
    reductions: input.reductions,
    // The three counters only (the whole status would carry the run's budget figures into the JSON).
    status: input.status && {
      budgetLines: input.status.budgetLines,
      budgetLineTokens: input.status.budgetLineTokens,
      contextStatusCalls: input.status.contextStatusCalls,
    },
  };
}

/** The claims: with the line on, on every request, read by the model, stored and summarized nowhere, counted. */
export function budgetLineViolations(expected: boolean, facts: BudgetLineFacts | undefined): string[] {
  if (!facts) return ['expected budget-line facts; the run has none'];
  const counted = facts.status?.budgetLines ?? 0;
  if (!expected) {
    const violations: string[] = [];
    if (facts.holdingLine > 0) violations.push(`expected no budget line; ${facts.holdingLine} request(s) held one`);
    if (counted !== 0) violations.push(`expected status().budgetLines 0, got ${counted}`);
    return violations;
  }
  const violations: string[] = [];
  if (facts.agentCalls === 0 || facts.endingWithLine !== facts.agentCalls)
    violations.push(
      `expected every agent request to end with the budget line; ${facts.endingWithLine} of ${facts.agentCalls} did`,
    );
  if (facts.percentsQuoted.join() !== facts.percentsShown.join() || facts.percentsQuoted.length !== facts.agentCalls)
    violations.push(
      `expected the model to quote the percentage of each line it was sent; shown [${facts.percentsShown.join(', ')}], quoted [${facts.percentsQuoted.join(', ')}]`,
    );
  if (facts.storedEventsWithLine > 0 || facts.stateHoldsLine)
    violations.push(
      `expected the line in no stored event or state; ${facts.storedEventsWithLine} event(s) held it${facts.stateHoldsLine ? ', and the state did' : ''}`,
    );
  if (facts.summaryRequestsWithLine > 0)
    violations.push(
      `expected the line in no summary request; ${facts.summaryRequestsWithLine} of ${facts.summaryRequests} held it`,
    );
  if (counted !== facts.agentCalls)
    violations.push(`expected status().budgetLines to equal the ${facts.agentCalls} agent call(s), got ${counted}`);
  if (facts.reductions === 0) violations.push('scenario too mild: no compaction or masking while the line was sent');
  if (facts.summaryRequests === 0) violations.push('scenario too mild: no summary request to keep the line out of');
  return violations;
}
