/**
 * Which stored events a range of request contents came from, for the audit
 * trail. ADK builds contents from events (cloned, client function-call ids
 * removed, other agents' events rewritten), so contents are matched to events
 * in order; contents with no matching event (rewritten or merged ones) are
 * skipped. Used only for records, never for stripping.
 *
 * Matching runs on probes (bounded walks that skip tool data), through an
 * index from probe to events, so a compaction at a 1M-token history does not
 * serialise every stored tool result again. Contents equal in full have equal
 * probes, so a content no probe matches (another agent's, rewritten) has no
 * event either; probes can collide, though, so the first and last matches are
 * confirmed with full fingerprints, and if either is wrong the exact, slower
 * matching is used instead.
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

/** Matched pairs, in order: `events[i]` is the event the content at `contents[i]` came from. */
interface Matches {
  readonly events: number[];
  readonly contents: number[];
}

/** In-order matching: for each key, the first event at or after the previous match whose key is equal. */
function matchInOrder(eventKeys: readonly (string | undefined)[], contentKeys: readonly string[]): Matches {
  const positions = new Map<string, number[]>();
  eventKeys.forEach((key, index) => {
    if (key === undefined) return;
    const list = positions.get(key);
    if (list) list.push(index);
    else positions.set(key, [index]);
  });
  // How far into each list earlier matches have gone: the cursor only moves forward, so each list is read once.
  const read = new Map<string, number>();
  const matched: Matches = { events: [], contents: [] };
  let cursor = 0;
  contentKeys.forEach((key, contentIndex) => {
    const list = positions.get(key);
    if (!list) return;
    let at = read.get(key) ?? 0;
    while (at < list.length && (list[at] as number) < cursor) at++;
    read.set(key, at);
    const index = list[at];
    if (index === undefined) return;
    matched.events.push(index);
    matched.contents.push(contentIndex);
    read.set(key, at + 1);
    cursor = index + 1;
  });
  return matched;
}

function covered(events: readonly EventLike[], { events: matched }: Matches): CoveredEvents {
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
export function mapContentsToEvents(
  events: readonly EventLike[],
  contents: readonly Content[],
  contentFingerprints: readonly string[],
): CoveredEvents {
  const probe = (content: Content | undefined): string | undefined =>
    content ? probeFingerprint(content, { skipBulk: true }) : undefined;
  const byProbe = matchInOrder(
    events.map((event) => probe(eventContent(event))),
    contents.map((content) => probe(content) ?? ''),
  );
  const confirmed = (pair: number): boolean => {
    const content = eventContent(events[byProbe.events[pair] ?? -1]);
    return content !== undefined && fingerprint(content) === contentFingerprints[byProbe.contents[pair] ?? -1];
  };
  // No probe matched: no full fingerprint would. Else trust the match when both ends agree in full.
  const last = byProbe.events.length - 1;
  if (last < 0 || (confirmed(0) && confirmed(last))) return covered(events, byProbe);
  return covered(
    events,
    matchInOrder(
      events.map((event) => {
        const content = eventContent(event);
        return content ? fingerprint(content) : undefined;
      }),
      contentFingerprints,
    ),
  );
}
