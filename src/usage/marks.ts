/**
 * The marks an agent's usage record keeps between calls so a decision is not taken twice for
 * nothing: a forced compaction after a rejection, a futile compaction, the cause of the last
 * over-limit warning, and a refused pin of the first request.
 */
import { asRecord, MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import { decodeCount, type FieldReader } from '../state/field-reader.js';

export interface UsageMarks {
  /** Set after a rejected request: the next call compacts whatever the estimate says. */
  readonly forceCompaction: boolean;
  /** The last compaction that could not make the request fit, so it is not retried for nothing (trigger/futile-compaction.ts). */
  readonly futileCompaction?: FutileCompaction | undefined;
  /** Window and fixed part of the last over-limit warning: the same cause is counted, not warned about again. */
  readonly overLimitCause?: string | undefined;
  /**
   * The estimate of the user's message the last call cut (pipeline/finish.ts): a tool loop cuts the same message on
   * every call, and says so once.
   */
  readonly messageCutFrom?: number | undefined;
  /** The pin cap at which pinning the first request was refused; retried only under a larger cap. */
  readonly firstRequestPinRefusedCap?: number | undefined;
  /**
   * After the sliding window's scheduled summary was not kept (it would not have made the request smaller), the
   * last count of completed turns past the watermark at which the schedule is held: it waits until the span it
   * would summarize has doubled (`scheduleHeldUntil`) rather than call the summarizer again on every call.
   */
  readonly scheduleHeldAt?: number | undefined;
  /**
   * A summary prepared in the background fell short at the threshold and the call summarized again
   * (pipeline/make-summary.ts): it paid two summarizer calls and waited all the same. The session prepares no more.
   */
  readonly preparedFellShort?: boolean | undefined;
  /** The agent's requests in this session carried the guard's recall tool: it stays declared (recall/declaration.ts). */
  readonly recallDeclared?: boolean | undefined;
  /**
   * The app of the session whose calls wrote the record. ADK's `AgentTool` seeds a child's session (app: the child's
   * name) with a copy of the caller's state, so the caller's agents' records are in it, frozen at that call:
   * `status()` of the child's session skips them (status/own-agents.ts). Absent in records written before 2026-12-07.
   */
  readonly app?: string | undefined;
  /** For an `AgentTool` child's agent: the app of the session whose tool call ran it (its record is copied back there). */
  readonly calledFrom?: string | undefined;
}

/** What a futile compaction was tried against (plain data; the decision is in trigger/futile-compaction.ts). */
export interface FutileCompaction {
  readonly window: number;
  /** Heuristic tokens of the system instruction, tools and pins. */
  readonly fixedTokens: number;
  /** Correction factor in force. */
  readonly correction: number;
  /** Heuristic tokens of the contents (summary included, before shrinking) right after the attempt. */
  readonly contentTokens: number;
}

export function decodeMarks(read: FieldReader, record: Readonly<Record<string, unknown>>): UsageMarks {
  return {
    forceCompaction: read.boolean('forceCompaction'),
    futileCompaction: decodeFutileCompaction(record['futileCompaction']) ?? read.drop('futileCompaction'),
    overLimitCause: read.string('overLimitCause'),
    messageCutFrom: read.number('messageCutFrom', { max: MAX_PLAUSIBLE_TOKENS }),
    firstRequestPinRefusedCap: read.number('firstRequestPinRefusedCap', { max: MAX_PLAUSIBLE_TOKENS }),
    scheduleHeldAt: read.number('scheduleHeldAt', { max: MAX_PLAUSIBLE_TOKENS }),
    preparedFellShort: read.boolean('preparedFellShort') || undefined,
    recallDeclared: read.boolean('recallDeclared') || undefined,
    app: read.string('app'),
    calledFrom: read.string('calledFrom'),
  };
}

function decodeFutileCompaction(value: unknown): FutileCompaction | undefined {
  const record = asRecord(value);
  if (!record) return undefined;
  const window = decodeCount(record['window'], MAX_PLAUSIBLE_TOKENS);
  const fixedTokens = decodeCount(record['fixedTokens'], MAX_PLAUSIBLE_TOKENS);
  const correction = decodeCount(record['correction'], 1_000);
  const contentTokens = decodeCount(record['contentTokens'], MAX_PLAUSIBLE_TOKENS);
  if (
    window === undefined ||
    window === 0 ||
    fixedTokens === undefined ||
    correction === undefined ||
    correction === 0 ||
    contentTokens === undefined
  )
    return undefined;
  return { window, fixedTokens, correction, contentTokens };
}
