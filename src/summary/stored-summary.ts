/**
 * The summary record an agent keeps in session state: the summary text, what it covers (the
 * watermark) and its chain, with a tolerant decoder (see state/codec.ts).
 */
import type { DurableFact } from '../memory/durable-facts.js';
import { decodeFacts, showsOrigins } from '../memory/stored-facts.js';
import { decodeAwaited, type AwaitedCall } from './awaited-calls.js';
import { asRecord, decodeBoolean, decodeInteger, decodeString, RECORD_VERSION } from '../state/codec.js';
import { fieldReader } from '../state/field-reader.js';
import type { KeptContent } from '../state/watermark.js';
import { decodeCoveredContents, type CoveredContents } from '../state/covered-contents.js';

/** The current summary of an agent's history and what it covers. */
export interface SummaryRecord {
  readonly version: number;
  /** Summary text injected at the start of every request. */
  readonly text: string;
  /** Number of leading request contents the summary covers (the watermark). */
  readonly covered: number;
  /** Fingerprint of the last covered contents, to validate `covered` (see watermark.ts). */
  readonly anchor: string;
  /** The user's message before the watermark that stays verbatim (a compaction mid-turn; see watermark.ts). */
  readonly kept?: KeptContent | undefined;
  /** What the summary covers, order aside, to find it again after a reorder (see covered-contents.ts); absent in older records. */
  readonly contents?: CoveredContents | undefined;
  /** The user's request that was current when the summary was made. */
  readonly currentRequest?: string | undefined;
  /** How many compactions produced this summary chain. */
  readonly compactions: number;
  /** True when the mechanical fallback produced the text. */
  readonly fallback: boolean;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** Facts carried forward verbatim from summary to summary (see memory/durable-facts.ts). */
  readonly facts?: readonly DurableFact[] | undefined;
  /**
   * The facts carry their origins (`asked`, `pasted`, `listed`, since 2026-12-05). A record without it was written by
   * an earlier release, which kept none: its facts the user asked to keep are told again from their words.
   */
  readonly factOrigins?: true | undefined;
  /**
   * Cut at a late answer's function call (pipeline/locate-stored.ts): the two contents after the watermark are that
   * call and its answer, which no summary has read yet; the next compaction's prompt keeps them whatever it omits.
   */
  readonly lateAnswer?: true | undefined;
  /**
   * The answers the application sent (a long-running tool's final answer, a user's choice) that the summary has read,
   * by key (content/answer-key.ts, pipeline/unseen-answer.ts); absent in older records, which are applied as before.
   */
  readonly answers?: readonly string[] | undefined;
  /** The calls it covers that awaited the application's answer when it was made (summary/awaited-calls.ts). */
  readonly awaiting?: readonly AwaitedCall[] | undefined;
}

/**
 * The kept content of a summary: `undefined` when there is none, `null` when
 * the field is present but unusable. Such a record is dropped whole: applying
 * it without its kept content would strip the user's current message.
 */
function decodeKept(value: unknown, covered: number): KeptContent | undefined | null {
  if (value === undefined || value === null) return undefined;
  const record = asRecord(value);
  const at = record ? decodeInteger(record['at']) : undefined;
  const fingerprint = record?.['fingerprint'];
  if (at === undefined || at >= covered || typeof fingerprint !== 'string') return null;
  return { at, fingerprint };
}

/** Decodes a summary record, or `undefined` when it is missing or unusable. */
export function decodeSummaryRecord(value: unknown): SummaryRecord | undefined {
  return readSummaryRecord(value).summary;
}

/** A summary record read from state, and its counters and marks that were out of range (dropped to their defaults). */
export function readSummaryRecord(value: unknown): { summary: SummaryRecord | undefined; dropped: readonly string[] } {
  const dropped: string[] = [];
  const record = asRecord(value);
  return { summary: record ? summaryFrom(record, dropped) : undefined, dropped };
}

function summaryFrom(record: Record<string, unknown>, dropped: string[]): SummaryRecord | undefined {
  const text = record['text'];
  const covered = decodeInteger(record['covered']);
  const anchor = record['anchor'];
  if (
    typeof text !== 'string' ||
    text.length === 0 ||
    covered === undefined ||
    covered < 1 ||
    typeof anchor !== 'string'
  ) {
    return undefined;
  }
  const kept = decodeKept(record['kept'], covered);
  if (kept === null) return undefined;
  // Unusable (not absent): drop the record rather than locate it on less than it was written with.
  const contents = decodeCoveredContents(record['contents'], covered);
  if (contents === null) return undefined;
  // Facts are kept nowhere else once their messages are covered: unusable ones make the record unusable.
  const origins = decodeBoolean(record['factOrigins']) || showsOrigins(record['facts']);
  const facts = decodeFacts(record['facts'], origins);
  if (facts === null) return undefined;
  const read = fieldReader(record, dropped);
  return {
    version: decodeInteger(record['version']) ?? RECORD_VERSION,
    text,
    covered,
    anchor,
    kept,
    contents,
    currentRequest: decodeString(record['currentRequest']),
    compactions: Math.floor(read.number('compactions', { min: 1 }) ?? 1),
    fallback: decodeBoolean(record['fallback']),
    createdAt: read.number('createdAt', { max: Number.MAX_VALUE }) ?? 0,
    facts,
    ...(origins && { factOrigins: true }),
    ...(decodeBoolean(record['lateAnswer']) && { lateAnswer: true }),
    ...answersIn(record['answers']),
    ...awaitingIn(record['awaiting']),
  };
}

function awaitingIn(value: unknown): { awaiting?: readonly AwaitedCall[] } {
  const awaiting = decodeAwaited(value);
  return awaiting ? { awaiting } : {};
}

function answersIn(value: unknown): { answers?: readonly string[] } {
  const answers = decodeAnswerKeys(value);
  return answers ? { answers } : {};
}

/** Call ids read back at most, and their longest: a longer list, or another value, reads as absent. */
const MAX_ANSWERS = 512;
const MAX_ANSWER_ID_CHARS = 256;

/** The keys of the application's answers a summary read (its record's, or a preparation claim's); `undefined` if unusable. */
export function decodeAnswerKeys(value: unknown): readonly string[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_ANSWERS) return undefined;
  const ids = value.filter((id): id is string => typeof id === 'string' && id.length <= MAX_ANSWER_ID_CHARS);
  return ids.length === value.length ? ids : undefined;
}
