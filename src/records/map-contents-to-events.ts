/**
 * Which stored events a range of request contents came from, for the audit
 * trail. ADK builds contents from events (cloned, client function-call ids
 * removed, other agents' events rewritten), so contents are matched to events
 * in order; contents with no matching event (rewritten or merged ones) are
 * skipped. Used only for records, never for stripping.
 *
 * Matching runs on probes (bounded walks that skip tool data), through an
 * index from probe to events, so a compaction at a 1M-token history does not
 * serialise every stored tool result again; the first and last matches are
 * then confirmed with full fingerprints, and if a probe collision made either
 * wrong the exact, slower matching is used instead.
 */
import type { Content } from '@google/genai';
import { fingerprint, probeFingerprint } from '../estimate/fingerprint.js';
import type { CoveredEvents } from './compaction-record.js';

/** The parts of an ADK event this needs. */
export interface EventLike {
  readonly id: string;
  readonly timestamp: number;
  readonly content?: Content | undefined;
}

function withoutClientIds(content: Content): Content {
  return {
    ...content,
    parts: (content.parts ?? []).map((part) => {
      if (part.functionCall?.id?.startsWith('adk-')) {
        const { id: _id, ...call } = part.functionCall;
        return { ...part, functionCall: call };
      }
      if (part.functionResponse?.id?.startsWith('adk-')) {
        const { id: _id, ...response } = part.functionResponse;
        return { ...part, functionResponse: response };
      }
      return part;
    }),
  };
}

/** The content ADK would build from `event`, or undefined when it builds none. */
function eventContent(event: EventLike | undefined): Content | undefined {
  return event?.content?.role ? withoutClientIds(event.content) : undefined;
}

/** In-order matching: for each key, the first event at or after the previous match whose key is equal. */
function matchInOrder(eventKeys: readonly (string | undefined)[], contentKeys: readonly string[]): number[] {
  const positions = new Map<string, number[]>();
  eventKeys.forEach((key, index) => {
    if (key === undefined) return;
    const list = positions.get(key);
    if (list) list.push(index);
    else positions.set(key, [index]);
  });
  // How far into each list earlier matches have gone: the cursor only moves forward, so each list is read once.
  const read = new Map<string, number>();
  const matched: number[] = [];
  let cursor = 0;
  for (const key of contentKeys) {
    const list = positions.get(key);
    if (!list) continue;
    let at = read.get(key) ?? 0;
    while (at < list.length && (list[at] as number) < cursor) at++;
    read.set(key, at);
    const index = list[at];
    if (index === undefined) continue;
    matched.push(index);
    read.set(key, at + 1);
    cursor = index + 1;
  }
  return matched;
}

function covered(events: readonly EventLike[], matched: readonly number[]): CoveredEvents {
  const first = events[matched[0] ?? -1];
  const last = events[matched[matched.length - 1] ?? -1];
  return {
    firstEventId: first?.id,
    lastEventId: last?.id,
    firstTimestamp: first?.timestamp,
    lastTimestamp: last?.timestamp,
    count: matched.length,
  };
}

/**
 * The events, in order, that `contents` (with their fingerprints, in the same
 * order) came from.
 */
export function mapContentsToEvents(events: readonly EventLike[], contents: readonly Content[], contentFingerprints: readonly string[]): CoveredEvents {
  const probe = (content: Content | undefined): string | undefined => (content ? probeFingerprint(content, { skipBulk: true }) : undefined);
  const byProbe = matchInOrder(
    events.map((event) => probe(eventContent(event))),
    contents.map((content) => probe(content) ?? ''),
  );
  const confirmed = (eventIndex: number | undefined, contentIndex: number): boolean => {
    const content = eventContent(events[eventIndex ?? -1]);
    return content !== undefined && fingerprint(content) === contentFingerprints[contentIndex];
  };
  if (byProbe.length === 0 && contents.length === 0) return covered(events, byProbe);
  // Probes matched every content (the usual case) and the ends agree in full: trust the match.
  if (byProbe.length === contents.length && confirmed(byProbe[0], 0) && confirmed(byProbe[byProbe.length - 1], contents.length - 1)) {
    return covered(events, byProbe);
  }
  return covered(events, matchInOrder(events.map((event) => {
    const content = eventContent(event);
    return content ? fingerprint(content) : undefined;
  }), contentFingerprints));
}
