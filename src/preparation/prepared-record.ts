/**
 * Background compaction in session state, so any replica can finish what another started: the
 * claim (written in the state delta of the model call that starts a preparation) and the prepared
 * summary (written by a state-only event when it settles), each under its own key, never the live
 * summary's. Both name the summary they extend by its identity, and where they end by a watermark,
 * so a replica checks them against the live contents exactly as it checks an in-process one.
 * Tolerant decoders: an unusable record is `undefined`, never trusted.
 */
import { createHash } from 'node:crypto';
import { SUMMARIZER_FAILURE_KINDS, type SummarizerFailureKind, type SummaryOutcome } from '../summary/summarizer.js';
import { isPlainObject } from '../config/plain-object.js';
import { decodeAnswerKeys, decodeSummaryRecord, type SummaryRecord } from '../summary/stored-summary.js';
import { decodeCount } from '../state/field-reader.js';
import { MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import { MAX_CALLS } from '../cost/bill-summary.js';
import type { NewSummary } from '../summary/new-summary.js';
import { decodeDroppedFacts } from '../summary/dropped-facts.js';
import type { SummaryPosition } from '../state/watermark.js';
import { decodeCoveredContents } from '../state/covered-contents.js';

/** A preparation some replica started: what it extends and where it ends. */
export interface PreparationClaim {
  /** Unique per preparation: the prepared summary carries it back. */
  readonly id: string;
  /** Epoch milliseconds when it started (the claiming replica's clock). */
  readonly startedAt: number;
  /** `summaryIdentity` of the summary it extends; undefined: the session's first. */
  readonly previous: string | undefined;
  readonly watermark: SummaryPosition;
  /** Keys of the application's answers its summary reads (pipeline/unseen-answer.ts); absent in older claims. */
  readonly answers?: readonly string[] | undefined;
}

/** A settled preparation: its new summary as state holds it (see `storePrepared`). */
export interface StoredPreparedSummary extends PreparationClaim, Omit<NewSummary, 'outcome'> {
  /** The summarizer's verdict without text: the summary's is the record's, a failure's may quote the conversation. */
  readonly outcome: StoredOutcome;
  /** The record's current request. */
  readonly currentRequest: string | undefined;
}

type StoredOutcome =
  | Omit<Extract<SummaryOutcome, { ok: true }>, 'text'>
  | (Omit<Extract<SummaryOutcome, { ok: false }>, 'reason'> & {
      /** The kind itself where `kind` holds the nearest one an older release reads (`STORED_AS`). */
      readonly exactKind?: SummarizerFailureKind | undefined;
    });

/**
 * Failure kinds added after a release that reads prepared summaries, stored as the nearest kind that release knows:
 * it decoded an unknown kind as no summary at all, left the claim standing and waited `preparedSummaryWaitMs` for it
 * before summarizing again (review 55: 15 s on a rolling deploy). The kind itself is stored beside it.
 */
const STORED_AS: Partial<Record<SummarizerFailureKind, SummarizerFailureKind>> = { cut: 'empty' };

/** The failure kind of a stored outcome: the exact one when stored, a known kind, else a failure of an unknown kind. */
function failureKind(kind: unknown, exactKind: unknown): SummarizerFailureKind | undefined {
  const known = (value: unknown) => SUMMARIZER_FAILURE_KINDS.find((each) => each === value);
  // A kind a later release added: a failure all the same, so the summary is used rather than waited for.
  return known(exactKind) ?? known(kind) ?? (typeof kind === 'string' ? 'failed' : undefined);
}

/** Ids are made by the guard (a UUID); anything longer is not one of ours. */
const MAX_ID_CHARS = 64;

/** Which summary a record is, as far as extending it goes (records are decoded afresh on every call). */
export function summaryIdentity(record: SummaryRecord | undefined): string | undefined {
  if (record === undefined) return undefined;
  const text = createHash('sha1').update(record.text).digest('base64');
  return `${record.createdAt}:${record.covered}:${record.anchor}:${text}`;
}

function decodePosition(value: unknown): SummaryPosition | undefined {
  if (!isPlainObject(value)) return undefined;
  const covered = decodeCount(value['covered']);
  const anchor = value['anchor'];
  if (covered === undefined || !Number.isInteger(covered) || covered < 1 || typeof anchor !== 'string')
    return undefined;
  const contents = decodeCoveredContents(value['contents'], covered);
  if (contents === null) return undefined;
  const kept = value['kept'];
  if (kept === undefined || kept === null) return { covered, anchor, contents };
  if (!isPlainObject(kept)) return undefined;
  const at = decodeCount(kept['at']);
  const fingerprint = kept['fingerprint'];
  if (at === undefined || !Number.isInteger(at) || at >= covered || typeof fingerprint !== 'string') return undefined;
  return { covered, anchor, kept: { at, fingerprint }, contents };
}

/** Decodes a claim, or `undefined` when it is missing or unusable. */
export function decodePreparationClaim(value: unknown): PreparationClaim | undefined {
  if (!isPlainObject(value)) return undefined;
  const id = value['id'];
  const startedAt = decodeCount(value['startedAt']);
  const previous = value['previous'];
  const watermark = decodePosition(value['watermark']);
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_CHARS) return undefined;
  if (startedAt === undefined || watermark === undefined) return undefined;
  if (previous !== undefined && previous !== null && typeof previous !== 'string') return undefined;
  const answers = decodeAnswerKeys(value['answers']);
  return { id, startedAt, previous: previous ?? undefined, watermark, ...(answers && { answers }) };
}

function decodeOutcome(value: unknown): StoredOutcome | undefined {
  if (!isPlainObject(value)) return undefined;
  if (value['ok'] === true)
    return {
      ok: true,
      truncated: value['truncated'] === true,
      promptTokens: decodeCount(value['promptTokens'], MAX_PLAUSIBLE_TOKENS),
      cachedPromptTokens: decodeCount(value['cachedPromptTokens'], MAX_PLAUSIBLE_TOKENS),
      outputTokens: decodeCount(value['outputTokens'], MAX_PLAUSIBLE_TOKENS),
      calls: decodeCount(value['calls'], MAX_CALLS),
      requestTokens: decodeCount(value['requestTokens'], MAX_PLAUSIBLE_TOKENS),
    };
  const kind = failureKind(value['kind'], value['exactKind']);
  return value['ok'] === false && kind !== undefined ? { ok: false, kind } : undefined;
}

/** Decodes a prepared summary, or `undefined` when it is missing or unusable. */
export function decodeStoredPreparedSummary(value: unknown): StoredPreparedSummary | undefined {
  const claim = decodePreparationClaim(value);
  if (claim === undefined || !isPlainObject(value)) return undefined;
  const record = decodeSummaryRecord(value['record']);
  const outcome = decodeOutcome(value['outcome']);
  const dropped = value['droppedFacts'];
  const currentRequest = value['currentRequest'];
  if (record === undefined || outcome === undefined) return undefined;
  if (currentRequest !== undefined && currentRequest !== null && typeof currentRequest !== 'string') return undefined;
  return {
    ...claim,
    record,
    outcome,
    ...decodeDroppedFacts(dropped, value['droppedFactCount']),
    currentRequest: currentRequest ?? undefined,
    droppedContents: Math.floor(decodeCount(value['droppedContents']) ?? 0),
  };
}

/** A new summary as stored in state for other replicas (the summarizer's failure text left out: it may quote the conversation). */
export function storePrepared(claim: PreparationClaim, summary: NewSummary): StoredPreparedSummary {
  const { record, outcome } = summary;
  return {
    ...claim,
    record,
    droppedFacts: summary.droppedFacts,
    droppedFactCount: summary.droppedFactCount,
    outcome: outcome.ok
      ? {
          ok: true,
          truncated: outcome.truncated,
          promptTokens: outcome.promptTokens,
          cachedPromptTokens: outcome.cachedPromptTokens,
          outputTokens: outcome.outputTokens,
          calls: outcome.calls,
          requestTokens: outcome.requestTokens,
        }
      : storedFailure(outcome.kind),
    currentRequest: record.currentRequest,
    droppedContents: summary.droppedContents,
  };
}

/** A prepared summary read back from state, as the replica that made it holds it. */
export function restorePrepared(stored: StoredPreparedSummary): NewSummary {
  const { outcome, record } = stored;
  return {
    record,
    droppedFacts: stored.droppedFacts,
    droppedFactCount: stored.droppedFactCount,
    outcome: outcome.ok
      ? { ...outcome, text: record.text }
      : { ok: false, kind: exactKindOf(outcome), reason: `${exactKindOf(outcome)} (prepared on another replica)` },
    droppedContents: stored.droppedContents,
  };
}

function storedFailure(kind: SummarizerFailureKind): StoredOutcome {
  const legacy = STORED_AS[kind];
  return legacy ? { ok: false, kind: legacy, exactKind: kind } : { ok: false, kind };
}

function exactKindOf(outcome: Extract<StoredOutcome, { ok: false }>): SummarizerFailureKind {
  return outcome.exactKind ?? outcome.kind;
}
