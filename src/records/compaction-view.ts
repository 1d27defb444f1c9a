/**
 * The compaction-aware view of a stored session (seed 004's filtering layer,
 * as a read-only function): what an agent's model sees now, and which stored
 * events each of its summaries replaced. The events themselves are never
 * altered; this only reads them and the agent's state.
 */
import { fingerprint } from '../estimate/fingerprint.js';
import { renderContent } from '../summary/render-content.js';
import { renderFacts } from '../memory/durable-facts.js';
import { decodeSummaryRecord } from '../summary/stored-summary.js';
import { stateKeysFor } from '../state/keys.js';
import { COMPACTION_METADATA_KEY, decodeCompactionRecord, type CompactionRecord } from './compaction-record.js';
import { cameThroughA2a } from './remote-records.js';
import type { EventLike } from './map-contents-to-events.js';

/** What `compactionView` reads of a stored event (an ADK `Event` is one). */
export interface StoredEventLike extends EventLike {
  readonly author?: string | undefined;
  readonly customMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/** What `compactionView` returns: an agent's summary, its compactions, and which events they replaced. */
export interface CompactionView {
  readonly agentName: string;
  /**
   * The summary the agent's requests carry now, if any: the summarizer's `text`, and the durable `facts` sent
   * verbatim after it (their block is part of `modelView`).
   */
  readonly summary?:
    | {
        readonly text: string;
        readonly facts: readonly string[];
        readonly fallback: boolean;
        readonly compactions: number;
      }
    | undefined;
  /** Every compaction of this agent found on stored events, oldest first. */
  readonly records: readonly CompactionRecord[];
  /** Stored events (with content) that the current summary chain replaced. */
  readonly replacedEventIds: readonly string[];
  /**
   * Stored events (with content) still sent verbatim: the user's message a summary made inside its
   * turn keeps (sent before the summary), then the events after the replaced ones.
   */
  readonly visibleEventIds: readonly string[];
  /** A plain-text rendering of what the model sees: the kept message if any, the summary, then the events after it. */
  readonly modelView: string;
}

/**
 * The compaction-aware view of a stored session for one agent: what its model sees now and which
 * stored events its summaries replaced. Reads only; the events are never altered. Anything but a
 * session (`undefined` from a `getSession` that found none) gives an empty view, like a session
 * without events (`listSessions`).
 */
export function compactionView(
  session:
    | { readonly state: Readonly<Record<string, unknown>>; readonly events?: readonly StoredEventLike[] | undefined }
    | undefined,
  agentName: string,
): CompactionView {
  const state: Readonly<Record<string, unknown>> = isObject(session?.state) ? session.state : {};
  const listed = session?.events;
  const events: readonly StoredEventLike[] = Array.isArray(listed) ? (listed as readonly StoredEventLike[]) : [];
  const records: CompactionRecord[] = [];
  for (const event of events) {
    if (cameThroughA2a(event.customMetadata)) continue;
    const record = decodeCompactionRecord(event.customMetadata?.[COMPACTION_METADATA_KEY]);
    if (record && record.agentName === agentName) records.push(record);
  }
  const summary = decodeSummaryRecord(state[stateKeysFor(agentName).summary]);
  const withContent = events.filter((event) => event.content?.role);
  // The chain replaces everything up to the last event the newest compaction covered.
  let boundary = -1;
  if (summary) {
    for (const record of records) {
      const lastId = record.coveredEvents.lastEventId;
      const index = lastId === undefined ? -1 : withContent.findIndex((event) => event.id === lastId);
      if (index > boundary) boundary = index;
    }
  }
  const covered = withContent.slice(0, boundary + 1);
  // A summary made inside a turn keeps that turn's message: the last covered event with its fingerprint.
  const keptIndex = summary?.kept ? lastWithFingerprint(covered, summary.kept.fingerprint) : -1;
  const kept = keptIndex >= 0 ? [covered[keptIndex]!] : [];
  const replaced = covered.filter((_, index) => index !== keptIndex);
  const visible = [...kept, ...withContent.slice(boundary + 1)];
  const lines: string[] = kept.map((event) => (event.content ? renderContent(event.content) : ''));
  if (summary)
    lines.push(
      `[summary, ${summary.compactions} compaction(s)${summary.fallback ? ', mechanical' : ''}]\n${summary.text}${renderFacts(summary.facts ?? [])}`,
    );
  for (const event of visible.slice(kept.length)) if (event.content) lines.push(renderContent(event.content));
  return {
    agentName,
    summary: summary
      ? {
          text: summary.text,
          facts: (summary.facts ?? []).map((fact) => fact.text),
          fallback: summary.fallback,
          compactions: summary.compactions,
        }
      : undefined,
    records,
    replacedEventIds: replaced.map((event) => event.id),
    visibleEventIds: visible.map((event) => event.id),
    modelView: lines.filter((line) => line.length > 0).join('\n'),
  };
}

/** The index of the last event whose content has `wanted` as its fingerprint, or -1. */
function lastWithFingerprint(events: readonly StoredEventLike[], wanted: string): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const content = events[i]?.content;
    if (content && fingerprint(content) === wanted) return i;
  }
  return -1;
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null;
