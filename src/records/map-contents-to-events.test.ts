import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { conversation, PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { foreignContext, functionResponse, userText } from '../../test/support/builders.js';
import { fingerprint } from '../estimate/fingerprint.js';
import { mapContentsToEvents, type EventLike } from './map-contents-to-events.js';

function eventsOf(contents: readonly (Content | undefined)[]): EventLike[] {
  return contents.map((content, i) => ({ id: `e${i}`, timestamp: 1_000 + i, content }));
}

function map(events: readonly EventLike[], contents: readonly Content[]) {
  return mapContentsToEvents(
    events,
    contents,
    contents.map((content) => fingerprint(content)),
  );
}

/** The matching as it was first written: for each content, the first later event with the same full fingerprint. */
function referenceMatch(events: readonly EventLike[], contents: readonly Content[]): string[] {
  const ids: string[] = [];
  let cursor = 0;
  for (const content of contents) {
    const print = fingerprint(content);
    for (let i = cursor; i < events.length; i++) {
      const event = events[i];
      if (event?.content?.role && fingerprint(event.content) === print) {
        ids.push(event.id);
        cursor = i + 1;
        break;
      }
    }
  }
  return ids;
}

describe('mapContentsToEvents', () => {
  describe('matching', () => {
    it('should find the first and last events and count the matched ones, skipping events without content', () => {
      const contents = [userText('one'), userText('two'), userText('three')];
      const events = eventsOf([contents[0], undefined, contents[1], contents[2], userText('later')]);
      expect(map(events, contents)).toEqual({
        firstEventId: 'e0',
        lastEventId: 'e3',
        firstTimestamp: 1_000,
        lastTimestamp: 1_003,
        count: 3,
      });
    });

    it("should skip contents rewritten from other agents' events", () => {
      const contents = [userText('one'), foreignContext('the planner said hi'), userText('two')];
      const events = eventsOf([userText('one'), { role: 'model', parts: [{ text: 'hi' }] }, userText('two')]);
      expect(map(events, contents)).toMatchObject({ firstEventId: 'e0', lastEventId: 'e2', count: 2 });
    });

    it('should match events whose function calls carry client ids ADK removes from contents', () => {
      const content: Content = {
        role: 'user',
        parts: [{ functionResponse: { name: 'fetch', response: { ok: true } } }],
      };
      const stored: Content = {
        role: 'user',
        parts: [{ functionResponse: { id: 'adk-123', name: 'fetch', response: { ok: true } } }],
      };
      expect(map(eventsOf([stored]), [content])).toMatchObject({ firstEventId: 'e0', count: 1 });
    });

    it('should not be misled by two tool results that differ only inside their data', () => {
      const early = functionResponse('fetch', { rows: Array.from({ length: 3_000 }, (_, i) => i) });
      const late = functionResponse('fetch', { rows: Array.from({ length: 3_000 }, (_, i) => i + 1) });
      // The request holds only the later result: the probes (which skip tool data) would pick the earlier event.
      expect(map(eventsOf([early, late]), [late])).toMatchObject({ firstEventId: 'e1', lastEventId: 'e1', count: 1 });
    });

    it('should cover nothing for no contents', () => {
      expect(map(eventsOf([userText('one')]), [])).toEqual({
        firstEventId: undefined,
        lastEventId: undefined,
        firstTimestamp: undefined,
        lastTimestamp: undefined,
        count: 0,
      });
    });
  });

  describe('laws', () => {
    it('should match like a full-fingerprint scan, whatever events were added or contents left out', () => {
      fc.assert(
        fc.property(
          conversation,
          fc.array(fc.boolean(), { maxLength: 40 }),
          fc.array(fc.boolean(), { maxLength: 40 }),
          (contents, extra, missing) => {
            const stored: (Content | undefined)[] = [];
            contents.forEach((content, i) => {
              if (extra[i]) stored.push(i % 2 === 0 ? undefined : userText(`noise ${i}`));
              stored.push(content);
            });
            const events = eventsOf(stored);
            const requested = contents.filter((_, i) => !missing[i]).map((content) => structuredClone(content));
            const expected = referenceMatch(events, requested);
            const result = map(events, requested);
            expect(result.count).toBe(expected.length);
            expect(result.firstEventId).toBe(expected[0]);
            expect(result.lastEventId).toBe(expected[expected.length - 1]);
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});
