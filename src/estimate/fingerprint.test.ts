import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonObject, mixedText, PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { foreignContext, foreignToolResult, functionResponse, userText } from '../../test/support/builders.js';
import { fingerprint, fingerprintOfKept, probeFingerprint } from './fingerprint.js';
import { keepCopy } from './kept-content.js';

/** The same string with the unit at `index` replaced by a different one. */
function withUnitChanged(text: string, index: number): string {
  const code = text.charCodeAt(index);
  return text.slice(0, index) + String.fromCharCode(code === 0x41 ? 0x42 : 0x41) + text.slice(index + 1);
}

describe('fingerprint', () => {
  describe('values that cannot be walked', () => {
    it('should fingerprint an object that refers to itself twice in bounded time', () => {
      const twice: Record<string, unknown> = { name: 'loop' };
      twice['a'] = twice;
      twice['b'] = twice;
      expect(fingerprint(functionResponse('fetch', twice))).toMatch(/^[0-9a-z]+\.[0-9a-z]+$/);
    }, 10_000);

    it('should fingerprint a cyclic object without looping', () => {
      const cyclic: Record<string, unknown> = { name: 'loop' };
      cyclic['self'] = cyclic;
      expect(fingerprint(cyclic)).toMatch(/^[0-9a-z]+\.[0-9a-z]+$/);
    });

    it('should walk a cycle once, reading a value inside it a bounded number of times', () => {
      // The eighteenth outside trial: an HTTP response whose request and response point at each other, with a
      // 100 KB body, was walked to the node budget and its body hashed on every round (26 s a call).
      let reads = 0;
      const body = 'x'.repeat(100_000);
      const response: Record<string, unknown> = { status: 200 };
      const request: Record<string, unknown> = { url: '/orders', response };
      Object.defineProperty(response, 'body', { enumerable: true, get: () => (reads++, body) });
      response['request'] = request;
      response['again'] = request;
      const print = fingerprint(functionResponse('fetch', { response, request }));
      expect(reads).toBeLessThanOrEqual(8);
      // The same cycles give the same fingerprint; a cycle closed elsewhere gives another.
      expect(fingerprint(functionResponse('fetch', { response, request }))).toBe(print);
      const elsewhere: Record<string, unknown> = { url: '/orders', response: { status: 200, body } };
      (elsewhere['response'] as Record<string, unknown>)['request'] = elsewhere;
      expect(fingerprint(functionResponse('fetch', { response: elsewhere, request }))).not.toBe(print);
    });

    it('should hash a long text shared by many values once per walk, to the same fingerprint as copies of it', () => {
      const text = 'y'.repeat(50_000);
      const shared = Array.from({ length: 200 }, () => ({ text }));
      const copies = Array.from({ length: 200 }, (_, i) => ({ text: `${'y'.repeat(49_999 + (i % 1))}y` }));
      expect(fingerprint(shared)).toBe(fingerprint(copies));
    });

    it('should fingerprint a 10,000-level nesting without overflowing the stack', () => {
      let nested: unknown = 'leaf';
      for (let i = 0; i < 10_000; i++) nested = { child: nested };
      expect(() => fingerprint(nested)).not.toThrow();
    });

    it('should fingerprint functions, symbols and BigInts without throwing', () => {
      expect(() => fingerprint({ run: () => 1, tag: Symbol('s'), big: 10n })).not.toThrow();
    });
  });

  describe('what counts as the same content', () => {
    it('should give a deep copy the same fingerprint (ADK clones contents on every step)', () => {
      const content = functionResponse('fetch_logs', { lines: ['a', 'b'], count: 2, ok: true });
      expect(fingerprint(structuredClone(content))).toBe(fingerprint(content));
    });

    it('should ignore undefined fields, which a JSON round trip drops', () => {
      expect(fingerprint({ role: 'user', parts: [{ text: 'hi', thought: undefined }] })).toBe(
        fingerprint(userText('hi')),
      );
    });

    it('should tell a number from its string, a boolean from its string and null from undefined', () => {
      expect(fingerprint({ value: 1 })).not.toBe(fingerprint({ value: '1' }));
      expect(fingerprint({ value: true })).not.toBe(fingerprint({ value: 'true' }));
      expect(fingerprint([null])).not.toBe(fingerprint([undefined]));
    });

    it('should tell an empty array from an empty object', () => {
      expect(fingerprint([])).not.toBe(fingerprint({}));
    });

    it('should tell the roles of two contents with the same text apart', () => {
      expect(fingerprint(userText('ok'))).not.toBe(fingerprint({ role: 'model', parts: [{ text: 'ok' }] }));
    });
  });

  describe('long strings (hashed whole: natively past 4,096 characters)', () => {
    const long = 'x'.repeat(10_000);

    it('should change when the length changes', () => {
      expect(fingerprint(`${long}x`)).not.toBe(fingerprint(long));
    });

    it('should change when the head, a quarter, the middle or the tail changes', () => {
      // Sampled windows of 48 units start at 0, 2,500, 5,000 and 9,952.
      for (const index of [0, 2_500, 5_000, 9_999])
        expect(fingerprint(withUnitChanged(long, index))).not.toBe(fingerprint(long));
    });

    it('should change for an edit anywhere, between the windows a probe samples too', () => {
      // A probe samples 48 units at 0, 2,500, 5,000 and 9,952: the other positions went unseen before.
      for (const index of [1_000, 4_000, 7_500])
        expect(fingerprint(withUnitChanged(long, index))).not.toBe(fingerprint(long));
      const short = 'x'.repeat(3_000);
      expect(fingerprint(withUnitChanged(short, 1_000))).not.toBe(fingerprint(short));
      expect(probeFingerprint(withUnitChanged(long, 1_000))).toBe(probeFingerprint(long));
    });

    it('should tell apart lone surrogates, which UTF-8 would turn into one replacement character', () => {
      const one = `${long}\uD800`;
      const other = `${long}\uD801`;
      expect(fingerprint(`${one}${long}`)).not.toBe(fingerprint(`${other}${long}`));
    });
  });

  describe('tool arguments and results', () => {
    /** A tool result of `count` keyed numbers (the shape that costs most to walk). */
    function wideResult(count: number): Record<string, number> {
      const out: Record<string, number> = {};
      for (let i = 0; i < count; i++) out[`k${i}`] = (i * 7_919) % 1_000_003;
      return out;
    }

    it('should not depend on the order of keys, at any depth (a database may reorder them)', () => {
      // PostgreSQL's jsonb gives `{ service, logs, at: { zone, second } }` back as `{ at: { zone, second }, logs, service }`.
      const asSeen = functionResponse('fetch', { service: 'api', logs: 'ok', at: { zone: 'eu', second: 7 } });
      const reloaded = {
        parts: [
          {
            functionResponse: {
              response: { at: { second: 7, zone: 'eu' }, logs: 'ok', service: 'api' },
              name: asSeen.parts?.[0]?.functionResponse?.name,
              ...(asSeen.parts?.[0]?.functionResponse?.id !== undefined && { id: asSeen.parts[0].functionResponse.id }),
            },
          },
        ],
        role: 'user',
      };
      expect(fingerprint(reloaded)).toBe(fingerprint(asSeen));
      expect(
        fingerprint(functionResponse('fetch', { service: 'api', logs: 'ok', at: { zone: 'eu', second: 8 } })),
      ).not.toBe(fingerprint(asSeen));
    });

    it("should not depend on the order of keys of another agent's result, which ADK sends as its JSON text", () => {
      const asSeen = foreignToolResult('searcher', 'fetch', {
        service: 'api',
        logs: 'ok',
        at: { zone: 'eu', second: 7 },
      });
      const reloaded = foreignToolResult('searcher', 'fetch', {
        at: { second: 7, zone: 'eu' },
        logs: 'ok',
        service: 'api',
      });
      expect(fingerprint(reloaded)).toBe(fingerprint(asSeen));
      expect(fingerprintOfKept(keepCopy(reloaded), reloaded)).toBe(fingerprint(asSeen));
      const changed = foreignToolResult('searcher', 'fetch', {
        service: 'api',
        logs: 'ok',
        at: { zone: 'eu', second: 8 },
      });
      expect(fingerprint(changed)).not.toBe(fingerprint(asSeen));
      expect(
        fingerprint(foreignToolResult('other', 'fetch', { service: 'api', logs: 'ok', at: { zone: 'eu', second: 7 } })),
      ).not.toBe(fingerprint(asSeen));
      // A text that is not JSON is hashed as it is.
      expect(fingerprint(foreignContext('[searcher] tool `fetch` returned result: not json'))).not.toBe(
        fingerprint(foreignContext('[searcher] tool `fetch` returned result: not JSON')),
      );
    });

    it("should not depend on the order of keys of another agent's call arguments either (the forty-fifth trial)", () => {
      const call = (args: string) => foreignContext(`[fetcher] called tool \`fetch_logs\` with parameters: ${args}`);
      expect(fingerprint(call('{"seed":8,"size":6000}'))).toBe(fingerprint(call('{"size":6000,"seed":8}')));
      expect(fingerprint(call('{"seed":9,"size":6000}'))).not.toBe(fingerprint(call('{"size":6000,"seed":8}')));
      const other = foreignContext('[fetcher] called tool `fetch_all` with parameters: {"size":6000,"seed":8}');
      expect(fingerprint(other)).not.toBe(fingerprint(call('{"size":6000,"seed":8}')));
      // Not what JSON.stringify writes: hashed as it is.
      expect(fingerprint(call('{ "seed": 8, "size": 6000 }'))).not.toBe(fingerprint(call('{"seed":8,"size":6000}')));
    });

    it('should tell apart texts that read back as the same result but are not what ADK writes (review 20)', () => {
      const items = { items: ['a', 'b'] };
      const adk = foreignContext(`[s] tool \`x\` returned result: ${JSON.stringify(items)}`);
      const variants = [
        `{"items":"${'junk '.repeat(1_000)}","items":["a","b"]}`,
        '{ "items": ["a", "b"] }',
        '{"\\u0069tems":["a","b"]}',
      ];
      for (const text of variants) {
        expect(JSON.parse(text)).toEqual(items);
        expect(fingerprint(foreignContext(`[s] tool \`x\` returned result: ${text}`))).not.toBe(fingerprint(adk));
      }
    });

    it('should change when any one value of a large result changes, even at the same length', () => {
      const response = wideResult(20_000);
      expect(JSON.stringify(response).length).toBeGreaterThan(200_000);
      const before = fingerprint(functionResponse('fetch', response));
      for (const index of [0, 1_234, 9_999, 19_999]) {
        // The same number of digits: the JSON text keeps its length, as two polls of one tool often do.
        const value = response[`k${index}`] as number;
        const changed = { ...response, [`k${index}`]: value % 10 === 9 ? value - 1 : value + 1 };
        expect(JSON.stringify(changed).length).toBe(JSON.stringify(response).length);
        expect(fingerprint(functionResponse('fetch', changed))).not.toBe(before);
      }
    });

    it('should give a deep copy of a 90,000-key result the same fingerprint, and a longer one another', () => {
      const response = wideResult(90_000);
      const print = fingerprint(functionResponse('fetch', response));
      expect(fingerprint(structuredClone(functionResponse('fetch', response)))).toBe(print);
      expect(fingerprint(functionResponse('fetch', { ...response, extra: 1 }))).not.toBe(print);
    });

    it('should tell apart results JSON cannot serialise, by walking them', () => {
      const one: Record<string, unknown> = { name: 'one' };
      one['self'] = one;
      const two: Record<string, unknown> = { name: 'two' };
      two['self'] = two;
      expect(fingerprint(functionResponse('fetch', one))).not.toBe(fingerprint(functionResponse('fetch', two)));
      expect(fingerprint(functionResponse('fetch', { big: 1n }))).not.toBe(
        fingerprint(functionResponse('fetch', { big: 2n })),
      );
    });
  });

  describe('probes', () => {
    it('should look into tool data by default and not at all with skipBulk', () => {
      const one = functionResponse('fetch', { rows: [1, 2, 3] });
      const other = functionResponse('fetch', { rows: [1, 2, 4] });
      expect(probeFingerprint(one)).not.toBe(probeFingerprint(other));
      expect(probeFingerprint(one, { skipBulk: true })).toBe(probeFingerprint(other, { skipBulk: true }));
      expect(probeFingerprint(one, { skipBulk: true })).not.toBe(
        probeFingerprint(functionResponse('search', { rows: [1, 2, 3] }), { skipBulk: true }),
      );
    });

    it('should stop after maxNodes nodes', () => {
      const rows = Array.from({ length: 1_000 }, (_, i) => i);
      const changedLate = rows.map((row, i) => (i === 900 ? -1 : row));
      expect(probeFingerprint(functionResponse('fetch', { rows }))).toBe(
        probeFingerprint(functionResponse('fetch', { rows: changedLate })),
      );
      expect(probeFingerprint(functionResponse('fetch', { rows }), { maxNodes: 2_000 })).not.toBe(
        probeFingerprint(functionResponse('fetch', { rows: changedLate }), { maxNodes: 2_000 }),
      );
    });
  });

  describe('laws', () => {
    it('should be stable under a JSON round trip of any JSON object', () => {
      fc.assert(
        fc.property(jsonObject, (value) => {
          expect(fingerprint(JSON.parse(JSON.stringify(value)))).toBe(fingerprint(value));
        }),
        PROPERTY_RUNS,
      );
    });

    it('should change when any unit of a string of up to 192 units changes', () => {
      fc.assert(
        fc.property(
          mixedText({ minLength: 1, maxLength: 96 }).filter((text) => text.length <= 192),
          fc.nat(),
          (text, seed) => {
            const index = seed % text.length;
            expect(fingerprint(userText(withUnitChanged(text, index)))).not.toBe(fingerprint(userText(text)));
          },
        ),
        PROPERTY_RUNS,
      );
    });

    it('should tell any two different numbers of a tool result apart, however far apart their digits are', () => {
      // Safe integers are hashed as two 26-bit halves: each half must count, and the sign.
      const number = fc.oneof(fc.maxSafeInteger(), fc.maxSafeNat(), fc.double({ noNaN: true }));
      fc.assert(
        fc.property(number, number, (a, b) => {
          fc.pre(JSON.stringify(a) !== JSON.stringify(b));
          expect(fingerprint(functionResponse('poll', { n: a }))).not.toBe(
            fingerprint(functionResponse('poll', { n: b })),
          );
        }),
        PROPERTY_RUNS,
      );
      for (const [a, b] of [
        [1, 1 + 2 ** 26],
        [5, -5],
        [2 ** 52, 2 ** 52 + 2 ** 26],
        [2 ** 60, 2 ** 60 + 2 ** 10],
        // 2^52 apart: the high half of a safe integer has 27 bits, and a mixed code keeps 26.
        [1, 2 ** 52 + 1],
        [0, 2 ** 52],
        [-7, -(2 ** 52 + 7)],
        [2 ** 26, 2 ** 52 + 2 ** 26],
        [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 2 ** 52],
      ] as const)
        expect(fingerprint(functionResponse('poll', { n: a }))).not.toBe(
          fingerprint(functionResponse('poll', { n: b })),
        );
    });

    it('should fingerprint a value with toJSON as JSON sends it: two dates apart, a date as its text', () => {
      const at = (time: number) => functionResponse('query', { rows: [{ id: 1, created: new Date(time) }] });
      expect(fingerprint(at(1))).not.toBe(fingerprint(at(2)));
      expect(fingerprint(at(1))).toBe(fingerprint(JSON.parse(JSON.stringify(at(1)))));
      const throwing = {
        toJSON: () => {
          throw new Error('no');
        },
      };
      expect(() => fingerprint(functionResponse('query', { value: throwing }))).not.toThrow();
      const selfish: { toJSON(): unknown; n: number } = { n: 1, toJSON: () => selfish };
      expect(() => fingerprint(functionResponse('query', { value: selfish }))).not.toThrow();
    });

    it('should give the copy the measure cache keeps of a content the fingerprint of the content', () => {
      const same = (value: unknown): void => {
        expect(fingerprintOfKept(keepCopy(value), value)).toBe(fingerprint(value));
      };
      fc.assert(
        fc.property(jsonObject, (value) => {
          same(functionResponse('query', value));
        }),
        PROPERTY_RUNS,
      );
      same({ role: 'user', parts: [{ text: 'a', thought: undefined }] });
      // eslint-disable-next-line no-sparse-arrays
      same(functionResponse('query', { rows: [1, , 3] }));
      same(functionResponse('query', { at: new Date(5), rows: [{ at: new Date(6) }] }));
      same(functionResponse('query', { value: { n: 1, toJSON: () => 'one' } }));
      let deep: Record<string, unknown> = { leaf: 1 };
      for (let i = 0; i < 80; i++) deep = { level: i, child: deep };
      same(functionResponse('query', deep));
      // More values than a fingerprint walks (1,000,000): both stop at the same one.
      const many = Array.from({ length: 1_000_100 }, (_, i) => i);
      same(functionResponse('query', { many }));
      expect(fingerprintOfKept(keepCopy(functionResponse('query', { many })), {})).not.toBe(
        fingerprint(functionResponse('query', { many: [...many.slice(0, 999_000), -1] })),
      );
    });

    it('should give the kept copy the fingerprint of the content for values no JSON holds', () => {
      const same = (value: unknown): void => {
        expect(fingerprintOfKept(keepCopy(value), value)).toBe(fingerprint(value));
      };
      const rows: unknown[] & { extra?: string } = [1, -0, NaN, 10n];
      rows.extra = 'not walked';
      const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, toJSON: 5 });
      const got = Object.defineProperty({}, 'x', { enumerable: true, get: () => 5 });
      const listed = (): void => undefined;
      for (const value of [
        { rows, [Symbol('s')]: 2, toJSON: 'a key, not a method' },
        bare,
        got,
        new Proxy({ a: 1, b: 'x' }, {}),
        Object.freeze({ frozen: Object.freeze([1, 2]) }),
        JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as Record<string, unknown>,
        { map: new Map([[1, 2]]), set: new Set([1]), at: new Date(0), instance: new (class Row {})() },
        { fn: listed, symbol: Symbol('q'), array: Object.assign([1], { toJSON: () => 'z' }) },
      ])
        same(functionResponse('query', value));
      for (const data of [Buffer.from('abc'), new Uint8Array([1, 2])])
        same({ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data } }] });
      // Objects and arrays exactly at and past the depth a fingerprint and a copy walk.
      for (const depth of [63, 64, 65, 66]) {
        let object: unknown = 'leaf';
        let array: unknown = 'leaf';
        for (let i = 0; i < depth; i++) [object, array] = [{ k: object }, [array]];
        same(object);
        same(array);
      }
    });

    it('should change when a part is appended to a content', () => {
      fc.assert(
        fc.property(mixedText({ maxLength: 50 }), mixedText({ maxLength: 50 }), (first, second) => {
          const one = userText(first);
          const two = { role: 'user', parts: [{ text: first }, { text: second }] };
          expect(fingerprint(two)).not.toBe(fingerprint(one));
        }),
        PROPERTY_RUNS,
      );
    });
  });
});
