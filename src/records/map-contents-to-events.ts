/**
 * Which stored events a range of request contents came from, for the audit
 * trail. ADK builds contents from events (cloned, client function-call ids
 * removed, other agents' events rewritten), so contents are matched to events
 * by fingerprint, in order; contents with no matching event (rewritten or
 * merged ones) are skipped. Used only for records, never for stripping.
 */
import type { Content } from '@google/genai';
import { fingerprint } from '../estimate/fingerprint.js';
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

/** The events, in order, whose content matches `contentFingerprints` (also in order). */
export function mapContentsToEvents(events: readonly EventLike[], contentFingerprints: readonly string[]): CoveredEvents {
  const matched: EventLike[] = [];
  let cursor = 0;
  for (const print of contentFingerprints) {
    for (let i = cursor; i < events.length; i++) {
      const event = events[i];
      if (!event?.content?.role) continue;
      if (fingerprint(withoutClientIds(event.content)) === print) {
        matched.push(event);
        cursor = i + 1;
        break;
      }
    }
  }
  const first = matched[0];
  const last = matched[matched.length - 1];
  return {
    firstEventId: first?.id,
    lastEventId: last?.id,
    firstTimestamp: first?.timestamp,
    lastTimestamp: last?.timestamp,
    count: matched.length,
  };
}
