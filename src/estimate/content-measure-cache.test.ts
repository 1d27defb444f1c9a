import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { conversation, HEAVY_PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { functionResponse, modelText, userText } from '../../test/support/builders.js';
import { characterTokenizer, recordingTokenizer } from '../../test/support/tokenizers.js';
import { ContentMeasureCache, type ContentMeasures } from './content-measure-cache.js';

const KEY = 'session-1\u0000worker';

/** The measures themselves, without the snapshot's number (a fresh cache numbers its own). */
function withoutChange(measures: ContentMeasures): Omit<ContentMeasures, 'change' | 'probedBefore'> {
  const { fingerprints, tokens, framing, kept } = measures;
  return { fingerprints, tokens, framing, kept };
}

/** The session's events behind a history: ids in the order the session lists them. */
function events(count: number, order: readonly number[] = []): { id: string }[] {
  const ids = Array.from({ length: count }, (_, i) => ({ id: `event-${i}` }));
  return order.length > 0 ? order.map((i) => ids[i]!) : ids;
}

/** A history of `count` distinct contents: 'message 0', 'message 1', ... */
function history(count: number): Content[] {
  return Array.from({ length: count }, (_, i) => (i % 2 === 0 ? userText(`message ${i}`) : modelText(`message ${i}`)));
}

/** The tokens the cache counts for `contents`. */
function measuredTokens(contents: Content[]): number {
  return new ContentMeasureCache().measure('probe', contents, characterTokenizer).tokens.reduce((a, b) => a + b, 0);
}

describe('ContentMeasureCache', () => {
  describe('empty requests', () => {
    it('should measure nothing', () => {
      const cache = new ContentMeasureCache();
      expect(cache.measure(KEY, [], characterTokenizer)).toEqual({
        change: { generation: expect.any(Number) as number, previous: undefined, unchangedBefore: 0 },
        fingerprints: [],
        tokens: [],
        framing: [],
        kept: [],
        probedBefore: 0,
      });
      expect(cache.measuredContents).toBe(0);
    });
  });

  describe('measures', () => {
    it('should estimate every content', () => {
      const cache = new ContentMeasureCache();
      // 4 + 3 + 'message 0' (9) = 16 for each of the ten single-digit messages
      expect(cache.measure(KEY, history(3), characterTokenizer).tokens).toEqual([16, 16, 16]);
    });
  });

  describe('with nothing before the guard that could edit (exact off)', () => {
    it('should take a history still in place at its first and last known contents without comparing the middle', () => {
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(5), characterTokenizer, { exact: false, events: events(5) });
      const grown = history(7);
      grown[2] = userText('edited in the middle, longer than before');
      const { tokens } = cache.measure(KEY, grown, characterTokenizer, { exact: false, events: events(7) });
      // Only the two appended contents are measured: the middle one keeps its earlier measure (16).
      expect(cache.measuredContents).toBe(7);
      expect(tokens[2]).toBe(16);
      // The exact walk on the same contents sees the edit.
      expect(cache.measure(KEY, grown, characterTokenizer, { exact: true }).tokens[2]).toBe(4 + 3 + 40);
    });

    it('should compare every content when a new event answers a call of the known history (a late answer)', () => {
      // ADK places a late answer (a long-running tool's, a confirmation's) right after its call, in place of the
      // call's pending response: the known history keeps its first and last contents, and one in the middle changes.
      const cache = new ContentMeasureCache();
      const call = { id: 'event-1', content: { parts: [{ functionCall: { id: 'call-1' } }] } };
      const pending = { id: 'event-2', content: { parts: [{ functionResponse: { id: 'call-1' } }] } };
      const known = [events(1)[0]!, call, pending, ...events(5).slice(3)];
      cache.measure(KEY, history(5), characterTokenizer, { exact: false, events: known });
      const answered = history(7);
      answered[2] = userText('the final answer, longer than the pending one');
      const late = { id: 'event-5', author: 'user', content: { parts: [{ functionResponse: { id: 'call-1' } }] } };
      const measures = cache.measure(KEY, answered, characterTokenizer, {
        exact: false,
        events: [...known, late, events(7)[6]!],
      });
      expect(measures.tokens[2]).toBe(4 + 3 + 45);
      expect(measures.probedBefore).toBe(0);
      // A call and its response both new are the usual step: the known history is taken on its probe.
      const step = [
        { id: 'event-7', content: { parts: [{ functionCall: { id: 'call-2' } }] } },
        { id: 'event-8', content: { parts: [{ functionResponse: { id: 'call-2' } }] } },
      ];
      const grown = cache.measure(KEY, [...answered, ...history(9).slice(7)], characterTokenizer, {
        exact: false,
        events: [...known, late, events(7)[6]!, ...step],
      });
      expect(grown.probedBefore).toBe(7);
      // Another branch's tool answering a call it made before this agent's last request is not a late answer.
      const branch = [
        { id: 'event-10', author: 'other_branch', content: { parts: [{ functionResponse: { id: 'call-0' } }] } },
      ];
      const later = [...answered, ...history(9).slice(7), ...history(10).slice(9)];
      const next = cache.measure(KEY, later, characterTokenizer, {
        exact: false,
        events: [...known, late, events(7)[6]!, ...step, ...branch],
      });
      expect(next.probedBefore).toBe(9);
    });

    it('should compare every content when the first or the last known content changed, or the history is shorter', () => {
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(5), characterTokenizer, { exact: false, events: events(5) });
      for (const at of [0, 4]) {
        const changed = history(6);
        changed[at] = userText('a summary now in its place');
        changed[2] = userText('edited in the middle, longer than before');
        expect(cache.measure(KEY, changed, characterTokenizer, { exact: false, events: events(6) }).tokens[2]).toBe(
          4 + 3 + 40,
        );
        cache.measure(KEY, history(5), characterTokenizer, { exact: true, events: events(6) });
      }
      const shorter = history(4);
      shorter[2] = userText('edited in the middle, longer than before');
      expect(cache.measure(KEY, shorter, characterTokenizer, { exact: false, events: events(6) }).tokens[2]).toBe(
        4 + 3 + 40,
      );
    });

    it('should compare every content when the session lists its events in another order, first and last in place', () => {
      // A database reloading a parallel run by timestamp: two middle contents swapped, the last one known in place.
      const cache = new ContentMeasureCache();
      const before = [userText('question'), modelText('short'), modelText('a much longer answer'), userText('next')];
      cache.measure(KEY, before, characterTokenizer, { exact: false, events: events(4) });
      const reloaded = [before[0]!, before[2]!, before[1]!, before[3]!, modelText('appended')].map((c) =>
        structuredClone(c),
      );
      const measures = cache.measure(KEY, reloaded, characterTokenizer, {
        exact: false,
        events: events(5, [0, 2, 1, 3, 4]),
      });
      expect(withoutChange(measures)).toEqual(
        withoutChange(new ContentMeasureCache().measure(KEY, reloaded, characterTokenizer)),
      );
      // What was built from the snapshot before (the masked view's placeholders) holds only before the swap.
      expect(measures.change.unchangedBefore).toBe(1);
    });

    it('should read only the ids past the known ones on the very events list it read last time', () => {
      // ADK appends a turn's events to one list (a new list per turn): reading every id again is a cache miss each.
      let reads = 0;
      const counted = (id: string) => ({
        get id() {
          reads++;
          return id;
        },
      });
      const listed = Array.from({ length: 4 }, (_, i) => counted(`event-${i}`));
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(4), characterTokenizer, { exact: false, events: listed });
      listed.push(counted('event-4'), counted('event-5'));
      reads = 0;
      cache.measure(KEY, history(6), characterTokenizer, { exact: false, events: listed });
      // The last known id (a check that the list still leads with it) and the two new ones.
      expect(reads).toBe(3);
      // Another list (the next turn's, read back from the session service) is read in full.
      reads = 0;
      const nextTurn = [...listed];
      cache.measure(KEY, history(6), characterTokenizer, { exact: false, events: nextTurn });
      expect(reads).toBe(6);
      // A store that keeps events in the order appended (ADK's in-memory one): a new list, its last known id.
      reads = 0;
      const inMemory = [...listed, counted('event-6')];
      expect(
        cache.measure(KEY, history(7), characterTokenizer, { exact: false, events: inMemory, appendOnly: true })
          .probedBefore,
      ).toBe(6);
      expect(reads).toBe(2);
    });

    it('should compare every content when a list of an in-order store is cut to its latest events', () => {
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(4), characterTokenizer, { exact: false, events: events(4), appendOnly: true });
      // `numRecentEvents`: the list starts later, so the last known id is not where it was.
      const latest = events(7).slice(2);
      expect(
        cache.measure(KEY, history(5), characterTokenizer, { exact: false, events: latest, appendOnly: true })
          .probedBefore,
      ).toBe(0);
    });

    it('should say how many leading positions it took on its probe, none where it compared every content', () => {
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(4), characterTokenizer, { exact: false, events: events(4) });
      expect(cache.measure(KEY, history(6), characterTokenizer, { exact: false, events: events(6) }).probedBefore).toBe(
        4,
      );
      expect(cache.measure(KEY, history(7), characterTokenizer, { exact: true, events: events(7) }).probedBefore).toBe(
        0,
      );
      expect(
        cache.measure(KEY, history(8), characterTokenizer, {
          exact: false,
          events: events(8, [0, 2, 1, 3, 4, 5, 6, 7]),
        }).probedBefore,
      ).toBe(0);
      expect(cache.measure(KEY, history(9), characterTokenizer, { exact: false }).probedBefore).toBe(0);
    });

    it('should compare every content when the contents are built from another branch or isolation scope', () => {
      // One agent run per item of a fan-out, each in its own branch: the shared first and a like last content
      // are in place, the item between them is the other branch's.
      const cache = new ContentMeasureCache();
      const item = (text: string) => [userText('the task'), userText(text), modelText('done')];
      cache.measure(KEY, item('item zero'), characterTokenizer, {
        exact: false,
        events: events(3),
        builtFrom: 'run.worker_0\u0000',
      });
      const other = item('item one, a longer one than the first');
      const measures = cache.measure(KEY, other, characterTokenizer, {
        exact: false,
        events: events(4),
        builtFrom: 'run.worker_1\u0000',
      });
      expect(measures.probedBefore).toBe(0);
      expect(withoutChange(measures)).toEqual(
        withoutChange(new ContentMeasureCache().measure(KEY, other, characterTokenizer)),
      );
      // The same branch again, grown: the probe is taken.
      const grown = [...other, userText('next')];
      expect(
        cache.measure(KEY, grown, characterTokenizer, {
          exact: false,
          events: events(5),
          builtFrom: 'run.worker_1\u0000',
        }).probedBefore,
      ).toBe(3);
    });

    it('should compare every content when the events are not given, or one has no id', () => {
      for (const listed of [undefined, [...events(4), {}]]) {
        const cache = new ContentMeasureCache();
        cache.measure(KEY, history(4), characterTokenizer, { exact: false, events: events(4) });
        cache.measure(KEY, history(5), characterTokenizer, { exact: false, events: listed });
        const grown = history(6);
        grown[2] = userText('edited in the middle, longer than before');
        expect(cache.measure(KEY, grown, characterTokenizer, { exact: false, events: events(6) }).tokens[2]).toBe(
          4 + 3 + 40,
        );
      }
    });
  });

  describe('reuse across calls', () => {
    it('should measure only the contents appended since the last call', () => {
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(5), characterTokenizer);
      expect(cache.measuredContents).toBe(5);
      cache.measure(KEY, history(7), characterTokenizer);
      // 5 + the 2 new ones
      expect(cache.measuredContents).toBe(7);
    });

    it('should reuse measures for a deep copy of the history (ADK clones it on every step)', () => {
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(5), characterTokenizer);
      cache.measure(KEY, structuredClone(history(6)), characterTokenizer);
      expect(cache.measuredContents).toBe(6);
    });

    it('should measure again only a content that changed, first, middle or last, without tokenizing known contents again', () => {
      const tokenizer = recordingTokenizer();
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(4), tokenizer);
      const rewritten = [userText('a different start'), ...history(4).slice(1)];
      const measures = cache.measure(KEY, rewritten, tokenizer);
      expect(cache.measuredContents).toBe(5);
      // Only the new first text went to the tokenizer again.
      expect(tokenizer.counted.slice(4)).toEqual(['a different start']);
      // 4 + 3 + 'a different start' (17) = 24
      expect(measures.tokens).toEqual([24, 16, 16, 16]);
      // An edit in the middle, which the first and last contents alone do not show (an agent's callback redacting one).
      const middle = structuredClone(rewritten);
      (middle[2]!.parts![0] as { text: string }).text = 'redacted';
      const edited = cache.measure(KEY, middle, tokenizer);
      expect(cache.measuredContents).toBe(6);
      // 4 + 3 + 'redacted' (8) = 15
      expect(edited.tokens).toEqual([24, 16, 15, 16]);
      expect(edited.fingerprints[2]).not.toBe(measures.fingerprints[2]);
    });

    it('should see an edit deep inside a tool result, a key added or removed, and the order of keys', () => {
      const result = (response: Record<string, unknown>): Content[] => [
        ...history(2),
        functionResponse('fetch', response),
      ];
      const cache = new ContentMeasureCache();
      const first = cache.measure(KEY, result({ rows: [{ id: 1, note: 'secret' }], total: 1 }), characterTokenizer);
      const variants = [
        { rows: [{ id: 1, note: 'secreT' }], total: 1 },
        { rows: [{ id: 1, note: 'secret' }], total: 1, more: true },
        { rows: [{ id: 1 }], total: 1 },
        { total: 1, rows: [{ id: 1, note: 'secret' }] },
      ];
      let measured = cache.measuredContents;
      for (const variant of variants) {
        const measures = cache.measure(KEY, result(variant), characterTokenizer);
        expect(cache.measuredContents).toBe(measured + 1);
        measured = cache.measuredContents;
        expect(withoutChange(measures)).toEqual(
          withoutChange(new ContentMeasureCache().measure(KEY, result(variant), characterTokenizer)),
        );
      }
      expect(first.fingerprints[2]).not.toBe(
        cache.measure(KEY, result(variants[0]!), characterTokenizer).fingerprints[2],
      );
    });

    it('should keep the measures of a shorter history without measuring again', () => {
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(6), characterTokenizer);
      const measures = cache.measure(KEY, history(3), characterTokenizer);
      expect(cache.measuredContents).toBe(6);
      expect(withoutChange(measures)).toEqual(
        withoutChange(new ContentMeasureCache().measure(KEY, history(3), characterTokenizer)),
      );
    });

    it('should not be fooled by an edit made in place to a content it measured', () => {
      const cache = new ContentMeasureCache();
      const contents = history(3);
      cache.measure(KEY, contents, characterTokenizer);
      // A later callback edits ADK's object in place; the next call's content equals the edited one.
      (contents[1]!.parts![0] as { text: string }).text = 'edited in place';
      const measures = cache.measure(KEY, structuredClone(contents), characterTokenizer);
      expect(withoutChange(measures)).toEqual(
        withoutChange(new ContentMeasureCache().measure(KEY, contents, characterTokenizer)),
      );
    });

    it('should serialise a large tool result once for its fingerprint and its count', () => {
      const response = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key${i}`, i]));
      const json = JSON.stringify(response);
      const stringify = JSON.stringify;
      let serialised = 0;
      JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
        if (args[0] === response) serialised++;
        return stringify(...args);
      }) as typeof JSON.stringify;
      try {
        const tokens = new ContentMeasureCache().measure(
          KEY,
          [functionResponse('fetch', response)],
          characterTokenizer,
        ).tokens;
        // 4 + 3, then 'fetch' and the JSON text counted as one text (over JOIN_CHARS) joined by a newline
        expect(tokens).toEqual([7 + 'fetch\n'.length + json.length]);
      } finally {
        JSON.stringify = stringify;
      }
      expect(serialised).toBe(1);
    });

    it('should reuse measures when the last content is a bulky tool result, and see a change of its name', () => {
      const bulky = (name: string): Content =>
        functionResponse(name, { rows: Array.from({ length: 4_000 }, (_, i) => ({ id: i, status: 'ok' })) });
      const cache = new ContentMeasureCache();
      cache.measure(KEY, [...history(3), bulky('fetch')], characterTokenizer);
      cache.measure(KEY, structuredClone([...history(3), bulky('fetch'), userText('next')]), characterTokenizer);
      expect(cache.measuredContents).toBe(5);
      const other = 'session-2\u0000worker';
      cache.measure(other, [...history(3), bulky('fetch')], characterTokenizer);
      cache.measure(other, [...history(3), bulky('search'), userText('next')], characterTokenizer);
      // 5 + 4, then the renamed result and the new content.
      expect(cache.measuredContents).toBe(11);
    });

    it('should keep sessions and agents apart', () => {
      const cache = new ContentMeasureCache();
      cache.measure('session-1\u0000worker', history(3), characterTokenizer);
      cache.measure('session-2\u0000worker', history(3), characterTokenizer);
      expect(cache.measuredContents).toBe(6);
      expect(cache.sessionCount).toBe(2);
    });

    it('should not change measures it returned earlier when the history grows', () => {
      const cache = new ContentMeasureCache();
      const first = cache.measure(KEY, history(3), characterTokenizer);
      cache.measure(KEY, history(5), characterTokenizer);
      expect(first.tokens).toHaveLength(3);
      expect(first.fingerprints).toHaveLength(3);
    });
  });

  describe("the measured contents' memo", () => {
    it("should serve a user's own sessions, never another user's", () => {
      const cache = new ContentMeasureCache();
      const tokenizer = recordingTokenizer();
      const result = [functionResponse('lookup', { row: 'the same result in three sessions' })];
      cache.measure('a-1\u0000worker', result, tokenizer, { tenant: 'alice' });
      const first = tokenizer.counted.length;
      expect(first).toBeGreaterThan(0);
      // Alice's second session: her first one's count is taken.
      cache.measure('a-2\u0000worker', result, tokenizer, { tenant: 'alice' });
      expect(tokenizer.counted).toHaveLength(first);
      // Bob's session: counted again, from his own content.
      cache.measure('b-1\u0000worker', result, tokenizer, { tenant: 'bob' });
      expect(tokenizer.counted).toHaveLength(2 * first);
    });
  });

  describe('bounds', () => {
    it('should drop the least recently used session first', () => {
      const cache = new ContentMeasureCache({ sessions: 2 });
      cache.measure('a', history(2), characterTokenizer);
      cache.measure('b', history(2), characterTokenizer);
      cache.measure('a', history(2), characterTokenizer); // 'a' is now the most recent
      cache.measure('c', history(2), characterTokenizer); // drops 'b'
      expect(cache.sessionCount).toBe(2);
      const before = cache.measuredContents;
      cache.measure('a', history(2), characterTokenizer);
      expect(cache.measuredContents - before).toBe(0);
      cache.measure('b', history(2), characterTokenizer);
      expect(cache.measuredContents - before).toBe(2);
    });

    it('should drop the least recently used sessions while the kept contents are over the token budget', () => {
      const budget = measuredTokens(history(4)) * 2;
      const cache = new ContentMeasureCache({ tokens: budget });
      cache.measure('a', history(4), characterTokenizer);
      cache.measure('b', history(4), characterTokenizer);
      expect(cache.sessionCount).toBe(2);
      cache.measure('c', history(4), characterTokenizer); // over the budget: drops 'a'
      expect(cache.sessionCount).toBe(2);
      const before = cache.measuredContents;
      cache.measure('b', history(4), characterTokenizer);
      expect(cache.measuredContents - before).toBe(0);
      cache.measure('a', history(4), characterTokenizer);
      expect(cache.measuredContents - before).toBe(4);
      // A history that shrank counts its new size: 'a' cut to one content leaves room for 'd' beside the others.
      cache.measure('a', history(1), characterTokenizer);
      cache.measure('d', history(1), characterTokenizer);
      expect(cache.sessionCount).toBe(3);
      // One session larger than the whole budget is still kept: the one just measured never goes.
      const large = new ContentMeasureCache({ tokens: 1 });
      large.measure('a', history(4), characterTokenizer);
      expect(large.sessionCount).toBe(1);
      large.forget('a');
      large.measure('b', history(2), characterTokenizer);
      expect(large.sessionCount).toBe(1);
    });

    it('should weigh a kept content by the characters it holds when they are more than its tokens (inline media)', () => {
      // A 400,000-character photo counts a few hundred tokens but holds its bytes: about 50,000 of the budget.
      const photo = (): Content[] => [
        { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo'.padEnd(400_000, 'A') } }] },
      ];
      const cache = new ContentMeasureCache({ tokens: 120_000 });
      cache.measure('a', photo(), characterTokenizer);
      cache.measure('b', photo(), characterTokenizer);
      expect(cache.sessionCount).toBe(2);
      cache.measure('c', photo(), characterTokenizer); // three photos are over the budget: drops 'a'
      expect(cache.sessionCount).toBe(2);
      const before = cache.measuredContents;
      cache.measure('a', photo(), characterTokenizer);
      expect(cache.measuredContents - before).toBe(1);
    });

    it('should forget a key on request', () => {
      const cache = new ContentMeasureCache();
      cache.measure(KEY, history(2), characterTokenizer);
      cache.forget(KEY);
      expect(cache.sessionCount).toBe(0);
    });
  });

  describe('laws', () => {
    it('should return the same measures as a fresh cache for every prefix of a growing history', () => {
      fc.assert(
        fc.property(conversation, fc.array(fc.nat(), { maxLength: 5 }), (contents, cuts) => {
          const cache = new ContentMeasureCache();
          const ends = [...cuts.map((cut) => cut % (contents.length + 1)), contents.length].sort((a, b) => a - b);
          for (const end of ends) {
            const prefix = structuredClone(contents.slice(0, end));
            expect(withoutChange(cache.measure(KEY, prefix, characterTokenizer))).toEqual(
              withoutChange(new ContentMeasureCache().measure(KEY, prefix, characterTokenizer)),
            );
          }
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should vouch for a position only while it holds the measures of the snapshot before, in any session', () => {
      // What the masked view kept across calls takes without comparing (masking/request-view.ts, keptReach).
      const op = fc.oneof(
        fc.record({ kind: fc.constant('append' as const), text: fc.string({ maxLength: 6 }) }),
        fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), text: fc.string({ maxLength: 6 }) }),
        fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
        fc.record({ kind: fc.constant('forget' as const) }),
      );
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.nat(1), op, fc.boolean()), { maxLength: 25 }), (calls) => {
          const cache = new ContentMeasureCache({ sessions: 1 });
          const histories: Content[][] = [[], []];
          const last = new Map<string, ReturnType<ContentMeasureCache['measure']>>();
          const seen = new Set<number>();
          for (const [session, change, exact] of calls) {
            const key = `s${session}\u0000worker`;
            const history = histories[session] as Content[];
            if (change.kind === 'forget') cache.forget(key);
            else if (change.kind === 'append') history.push(userText(change.text));
            else if (history.length > 0 && change.kind === 'edit')
              history[change.at % history.length] = modelText(change.text);
            else if (history.length > 0) history.splice(change.at % history.length, 1);
            const measures = cache.measure(key, structuredClone(history), characterTokenizer, { exact });
            const before = last.get(key);
            last.set(key, measures);
            // Every snapshot has a number of its own, across sessions.
            expect(seen.has(measures.change.generation)).toBe(false);
            seen.add(measures.change.generation);
            if (measures.change.previous === undefined) continue;
            expect(measures.change.previous).toBe(before?.change.generation);
            for (let i = 0; i < measures.change.unchangedBefore; i++) {
              expect(measures.fingerprints[i]).toBe(before?.fingerprints[i]);
              expect(measures.tokens[i]).toBe(before?.tokens[i]);
              expect(measures.framing[i]).toBe(before?.framing[i]);
            }
          }
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should measure each content of a growing history once', () => {
      fc.assert(
        fc.property(conversation, (contents) => {
          const cache = new ContentMeasureCache();
          for (let end = 1; end <= contents.length; end++)
            cache.measure(KEY, contents.slice(0, end), characterTokenizer);
          expect(cache.measuredContents).toBe(contents.length);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });
  });
});

describe('ContentMeasureCache.forgetPrefix', () => {
  it('should drop every agent of one session and keep the other sessions', () => {
    const cache = new ContentMeasureCache();
    const contents = [userText('hello there')];
    cache.measure('s1\u0000alpha', contents, characterTokenizer);
    cache.measure('s1\u0000beta', contents, characterTokenizer);
    cache.measure('s2\u0000alpha', contents, characterTokenizer);
    cache.forgetPrefix('s1\u0000');
    expect(cache.sessionCount).toBe(1);
  });
});
