import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countResultLines,
  mayCutToolOutput,
  TRUNCATED_RESULT_KEY,
  truncateToolOutput,
} from './truncate-tool-output.js';
import { TOOL_OUTPUT_DEFAULTS, type ResolvedToolOutputLimits } from './policy.js';

const MAX = TOOL_OUTPUT_DEFAULTS.maxBytes;

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function numberedLines(count: number, width = 0): string[] {
  return Array.from({ length: count }, (_, index) => `line ${index + 1}${'.'.repeat(width)}`);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

function limits(overrides: Partial<ResolvedToolOutputLimits>): ResolvedToolOutputLimits {
  return { ...TOOL_OUTPUT_DEFAULTS, ...overrides };
}

/** A `load_memory` result (ADK's LoadMemoryTool): short questions between long reports, as memory entries. */
function memoryResult(count: number): Record<string, unknown> {
  const report = (item: number): string =>
    Array.from(
      { length: 14 },
      (_, line) => `10:${line}:00 host-${item} order ${item} shipped, invoice ${item * 100 + line}`,
    )
      .map((text) => `${text} ${'detail '.repeat(8)}`)
      .join('\n');
  const memories = Array.from({ length: count }, (_, item) => ({
    content: { parts: [{ text: item % 2 === 0 ? `question ${item} about an order` : report(item) }], role: 'user' },
    author: item % 2 === 0 ? 'user' : 'clerk',
    timestamp: '2026-12-05T20:34:25.260Z',
  }));
  return { memories };
}

describe('truncateToolOutput', () => {
  describe('nothing to cut', () => {
    it('should return undefined for a result within both limits', () => {
      const result = { result: numberedLines(256).join('\n'), exitCode: 0 };
      expect(bytesOf(result)).toBeLessThan(MAX);
      expect(truncateToolOutput({ tool: 'shell', result })).toBeUndefined();
    });

    it('should return undefined for a result that is not serialisable', () => {
      const circular: Record<string, unknown> = { text: 'x'.repeat(20_000) };
      circular['self'] = circular;
      expect(truncateToolOutput({ tool: 't', result: circular })).toBeUndefined();
      expect(truncateToolOutput({ tool: 't', result: { big: 10n, text: 'x'.repeat(20_000) } })).toBeUndefined();
    });
  });

  describe('string results', () => {
    it('should keep the first and last 128 lines of a wrapped string result and report the cut', () => {
      const lines = numberedLines(1_000);
      const input = { result: lines.join('\n') };
      const outcome = truncateToolOutput({ tool: 'fetch_logs', result: input });
      expect(outcome).toBeDefined();
      const kept = String(outcome?.result['result']).split('\n');
      expect(kept).toEqual([...lines.slice(0, 128), '[... omitted 744 of 1000 lines ...]', ...lines.slice(-128)]);
      expect(outcome?.record).toEqual({
        tool: 'fetch_logs',
        originalBytes: bytesOf(input),
        keptBytes: bytesOf(outcome?.result),
        originalLines: 1_000,
        // 128 + marker + 128.
        keptLines: 257,
      });
    });

    it('should cut by lines a result under the byte limit', () => {
      const input = { result: numberedLines(300).join('\n') };
      expect(bytesOf(input)).toBeLessThan(MAX);
      const outcome = truncateToolOutput({ tool: 't', result: input });
      expect(String(outcome?.result['result'])).toContain('[... omitted 44 of 300 lines ...]');
    });

    it('should hold a single 2 MB line to the byte limit, with its head and tail', () => {
      const line = Array.from({ length: 200_000 }, (_, index) => `${index % 10}abcdefghi`).join('');
      const outcome = truncateToolOutput({ tool: 't', result: { result: line } });
      const kept = String(outcome?.result['result']);
      expect(bytesOf(outcome?.result)).toBeLessThanOrEqual(MAX);
      expect(outcome?.record.keptBytes).toBe(bytesOf(outcome?.result));
      expect(outcome?.record.originalBytes).toBe(2_000_000 + '{"result":""}'.length);
      const [head = '', marker = '', tail = ''] = kept.split('\n');
      expect(line.startsWith(head)).toBe(true);
      expect(line.endsWith(tail)).toBe(true);
      expect(marker).toMatch(/^\[\.\.\. omitted \d+ of 2000000 bytes \.\.\.\]$/);
      // Nearly all of the 10 KiB is used: the marker and JSON framing take ~60 bytes.
      expect(head.length + tail.length).toBeGreaterThan(MAX - 120);
    });

    it('should never mutate its input', () => {
      const input = deepFreeze({ result: numberedLines(2_000, 30).join('\n'), nested: { list: numberedLines(5_000) } });
      const copy = structuredClone(input);
      const outcome = truncateToolOutput({ tool: 't', result: input });
      expect(outcome).toBeDefined();
      expect(input).toEqual(copy);
      expect(outcome?.result).not.toBe(input);
    });
  });

  describe('structured results', () => {
    it('should cut the big field and keep the small ones whole', () => {
      const stdout = numberedLines(5_000, 20).join('\n');
      const input = { exitCode: 1, stderr: 'error: tests failed\nat line 42', stdout, command: 'npm test' };
      const outcome = truncateToolOutput({ tool: 'shell', result: input });
      const result = outcome?.result ?? {};
      expect(Object.keys(result)).toEqual(['exitCode', 'stderr', 'stdout', 'command']);
      expect(result['exitCode']).toBe(1);
      expect(result['stderr']).toBe(input.stderr);
      expect(result['command']).toBe('npm test');
      expect(String(result['stdout'])).toMatch(/^line 1\.{20}\n/);
      expect(String(result['stdout'])).toMatch(/\nline 5000\.{20}$/);
      expect(bytesOf(result)).toBeLessThanOrEqual(MAX);
    });

    it('should cut a result nested deeper than its tree can recurse, which JSON.stringify still serialises', () => {
      // Review 13: 1,500-4,000 levels threw RangeError in the cut, and the shell sent the 20 KB result whole.
      let nested: Record<string, unknown> = { page: 'x'.repeat(20_000) };
      for (let level = 0; level < 3_000; level++) nested = { a: nested };
      expect(bytesOf(nested)).toBeGreaterThan(MAX);
      const result = truncateToolOutput({ tool: 'deep', result: nested })?.result;
      expect(bytesOf(result)).toBeLessThanOrEqual(MAX);
      expect(String(result?.[TRUNCATED_RESULT_KEY])).toMatch(/^\{\n {2}"a": \{/);
    });

    it('should keep the head and tail items of a huge array around a marker element', () => {
      const items = Array.from({ length: 10_000 }, (_, index) => ({ id: index, name: `item ${index}` }));
      const outcome = truncateToolOutput({ tool: 'list', result: { items, total: 10_000 } });
      const kept = outcome?.result['items'];
      expect(Array.isArray(kept)).toBe(true);
      const list = kept as unknown[];
      const markerIndex = list.findIndex((item) => typeof item === 'string');
      const head = list.slice(0, markerIndex);
      const tail = list.slice(markerIndex + 1);
      expect(head).toEqual(items.slice(0, head.length));
      expect(tail).toEqual(items.slice(items.length - tail.length));
      expect(list[markerIndex]).toBe(`[... omitted ${10_000 - head.length - tail.length} of 10000 items ...]`);
      expect(head.length - tail.length).toBeGreaterThanOrEqual(0);
      expect(head.length - tail.length).toBeLessThanOrEqual(1);
      expect(outcome?.result['total']).toBe(10_000);
      expect(bytesOf(outcome?.result)).toBeLessThanOrEqual(MAX);
      // Items are ~30 bytes; far more than 100 of them fit in 10 KiB.
      expect(head.length + tail.length).toBeGreaterThan(200);
    });

    it('should cut every big string of an array of documents and keep the structure', () => {
      const page = (index: number) => ({
        url: `https://example.com/${index}`,
        text: numberedLines(400, 10).join('\n'),
      });
      const input = { data: { pages: [page(1), page(2), page(3)], meta: { count: 3, source: 'crawler' } } };
      const outcome = truncateToolOutput({ tool: 'crawl', result: input });
      const data = outcome?.result['data'] as { pages: Array<{ url: string; text: string }>; meta: unknown };
      expect(data.meta).toEqual({ count: 3, source: 'crawler' });
      expect(data.pages.map((kept) => kept.url)).toEqual(input.data.pages.map((original) => original.url));
      for (const kept of data.pages) {
        expect(kept.text.startsWith('line 1.')).toBe(true);
        expect(kept.text.endsWith('line 400..........')).toBe(true);
        expect(kept.text).toMatch(/\[\.\.\. omitted \d+ of (400 lines|\d+ bytes) \.\.\.\]/);
      }
      // The three texts share the budget evenly: within a line or two of each other.
      const sizes = data.pages.map((kept) => kept.text.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(60);
      expect(bytesOf(outcome?.result)).toBeLessThanOrEqual(MAX);
    });

    it('should drop the middle keys of an object with too many keys', () => {
      const table = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`key_${index}`, index]));
      const outcome = truncateToolOutput({ tool: 'dump', result: { table } });
      const keys = Object.keys(outcome?.result['table'] as object);
      expect(keys[0]).toBe('key_0');
      expect(keys.at(-1)).toBe('key_4999');
      expect(keys.some((key) => /^\[\.\.\. omitted \d+ of 5000 keys \.\.\.\]$/.test(key))).toBe(true);
      expect(bytesOf(outcome?.result)).toBeLessThanOrEqual(MAX);
    });

    it('should keep a "__proto__" key as data', () => {
      const input = JSON.parse(
        `{"__proto__": {"polluted": true}, "text": ${JSON.stringify('x'.repeat(20_000))}}`,
      ) as Record<string, unknown>;
      const outcome = truncateToolOutput({ tool: 't', result: input });
      expect(Object.prototype.hasOwnProperty.call(outcome?.result, '__proto__')).toBe(true);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('should fall back to the head and tail of the JSON text when no structured cut fits', () => {
      // One 20 KB key: keys cannot be cut, so the structured cut cannot fit.
      const input = { ['k'.repeat(20_000)]: 1, other: 2 };
      const outcome = truncateToolOutput({ tool: 't', result: input });
      expect(Object.keys(outcome?.result ?? {})).toEqual([TRUNCATED_RESULT_KEY]);
      const text = String(outcome?.result[TRUNCATED_RESULT_KEY]);
      expect(text.startsWith('{\n  "kkkk')).toBe(true);
      expect(text.endsWith('"other": 2\n}')).toBe(true);
      expect(bytesOf(outcome?.result)).toBeLessThanOrEqual(MAX);
    });
  });

  describe('filling the budget', () => {
    it('should cut a load_memory result close to its budget, each kept memory keeping its keys and its text ends', () => {
      const outcome = truncateToolOutput({ tool: 'load_memory', result: memoryResult(79) });
      const text = JSON.stringify(outcome?.result);
      // Before: 3,937 bytes, every long memory reduced to "[... omitted 3 of 3 keys ...]".
      expect(bytesOf(outcome?.result)).toBeGreaterThan(0.95 * MAX);
      expect(bytesOf(outcome?.result)).toBeLessThanOrEqual(MAX);
      expect(text).not.toMatch(/omitted \d+ of \d+ keys/);
      const memories = outcome?.result['memories'] as unknown[];
      const kept = memories.filter(
        (item): item is { content: { parts: Array<{ text: string }> } } => typeof item === 'object',
      );
      expect(memories).toContainEqual(expect.stringMatching(/^\[\.\.\. omitted \d+ of 79 items \.\.\.\]$/));
      for (const item of kept) expect(Object.keys(item)).toEqual(['content', 'author', 'timestamp']);
      const reports = kept.map((item) => item.content.parts[0]?.text ?? '').filter((t) => t.includes('shipped'));
      expect(reports.length).toBeGreaterThan(10);
      for (const report of reports)
        expect(report).toMatch(/^10:0:00 host-\d+ order[^]*\[\.\.\. omitted [^]*invoice \d+13 /);
    });

    it("should keep a one-item array's item, cut, rather than only a marker", () => {
      const outcome = truncateToolOutput({
        tool: 't',
        result: { parts: [{ text: 'x'.repeat(400) }], role: 'user' },
        limits: limits({ maxBytes: 256 }),
      });
      expect(outcome?.result['parts']).toEqual([
        { text: expect.stringMatching(/^x+\n\[\.\.\. omitted \d+ of 400 bytes/) },
      ]);
    });

    // The line rule and long number runs are left out: they cut below the budget on purpose.
    const text = fc.string({ unit: 'grapheme', maxLength: 3_000 });
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        tie('arr'),
        tie('obj'),
      ),
      arr: fc.array(tie('tree'), { maxLength: 30 }),
      obj: fc.dictionary(fc.string({ maxLength: 8 }), tie('tree'), { maxKeys: 8 }),
    }));

    it('should fill at least half of the budget, and never more, when a result is over it', () => {
      fc.assert(
        fc.property(
          fc.dictionary(fc.string({ maxLength: 8 }), tree, { minKeys: 1, maxKeys: 6 }),
          fc.integer({ min: 256, max: 8_192 }),
          (result, maxBytes) => {
            fc.pre(bytesOf(result) > maxBytes);
            const resolved = { maxBytes, maxLines: 100_000, headLines: 50_000, tailLines: 50_000 };
            const kept = bytesOf(truncateToolOutput({ tool: 't', result, limits: resolved })?.result);
            expect(kept).toBeLessThanOrEqual(maxBytes);
            expect(kept).toBeGreaterThanOrEqual(maxBytes / 2);
          },
        ),
        { numRuns: 1_000 },
      );
    });
  });

  describe('long number arrays', () => {
    const png = Array.from({ length: 3_000 }, (_, index) => (index * 37) % 256);

    it("should cut a Buffer's bytes to its first values and a count, so the text keeps the budget", () => {
      const readme = numberedLines(400, 40).join('\n');
      const outcome = truncateToolOutput({
        tool: 'load_skill',
        result: { readme, logo: { type: 'Buffer', data: png } },
      });
      expect(outcome?.result['logo']).toEqual({
        type: 'Buffer',
        data: [...png.slice(0, 8), '[... omitted 2992 of 3000 numbers ...]'],
      });
      expect(bytesOf(outcome?.result)).toBeGreaterThan(0.95 * MAX);
      // Before: the bytes took 5,110 of the 10,205 bytes kept; the readme kept 103 lines (now 204).
      expect(String(outcome?.result['readme']).split('\n').length).toBeGreaterThan(180);
    });

    it('should keep a list of ids a model reads, as any array, in a result one byte over the limit (review 13)', () => {
      const ids = Array.from({ length: 40 }, (_, index) => 100_000 + index * 7_919);
      const overhead = JSON.stringify({ order_ids: ids, note: '' }).length;
      const result = { order_ids: ids, note: 'n'.repeat(MAX - overhead + 1) };
      expect(truncateToolOutput({ tool: 't', result })?.result['order_ids']).toEqual(ids);
    });

    it('should leave a number array whole in a result under the limit, and short ones in a result cut', () => {
      const embedding = png.slice(0, 1_000);
      expect(truncateToolOutput({ tool: 't', result: { embedding } })).toBeUndefined();
      const short = png.slice(0, 256);
      const outcome = truncateToolOutput({ tool: 't', result: { short, text: 'y'.repeat(20_000) } });
      expect(outcome?.result['short']).toEqual(short);
    });
  });

  describe('unicode', () => {
    const samples: Record<string, string> = {
      cjk: '日本語のログ出力です。漢字とかな。\n'.repeat(3_000),
      emoji: '🚀 deploy ✅ 👍🏽 👨‍👩‍👧‍👦 🇫🇷\n'.repeat(3_000),
      combining: 'Ελληνικά e\u0301 n\u0303 a\u0308\u0301\n'.repeat(3_000),
      singleLineEmoji: '😀'.repeat(500_000),
    };

    for (const [name, text] of Object.entries(samples)) {
      it(`should cut ${name} results within the limit without breaking a character`, () => {
        for (const maxBytes of [256, 1_000, 4_097, MAX]) {
          const outcome = truncateToolOutput({
            tool: 't',
            result: { result: text, label: 'ラベル' },
            limits: limits({ maxBytes }),
          });
          const kept = String(outcome?.result['result']);
          expect(bytesOf(outcome?.result)).toBeLessThanOrEqual(maxBytes);
          expect(hasLoneSurrogate(kept)).toBe(false);
          expect(outcome?.result['label']).toBe('ラベル');
          expect(Buffer.from(kept, 'utf8').toString('utf8')).toBe(kept);
        }
      });
    }
  });

  describe('laws', () => {
    const anyResult = fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), {
      maxKeys: 12,
    });
    /** A result, and limits of 256 B to 2 KiB and 1 to 8 lines (head and tail halves). */
    const anyCase = fc
      .tuple(anyResult, fc.integer({ min: 256, max: 2_048 }), fc.integer({ min: 1, max: 8 }))
      .map(([result, maxBytes, maxLines]) => ({
        result,
        resolved: { maxBytes, maxLines, headLines: Math.ceil(maxLines / 2), tailLines: Math.floor(maxLines / 2) },
      }));

    it('should never say a result may not be cut where the cut cuts it (mayCutToolOutput)', () => {
      fc.assert(
        fc.property(anyCase, ({ result, resolved }) => {
          if (truncateToolOutput({ tool: 't', result, limits: resolved }))
            expect(mayCutToolOutput(result, resolved)).toBe(true);
        }),
        { numRuns: 300 },
      );
      expect(mayCutToolOutput({ status: 'ok' }, TOOL_OUTPUT_DEFAULTS)).toBe(false);
      expect(mayCutToolOutput({ log: 'line\n'.repeat(300) }, TOOL_OUTPUT_DEFAULTS)).toBe(true);
      expect(mayCutToolOutput({ body: 'x'.repeat(20_000) }, TOOL_OUTPUT_DEFAULTS)).toBe(true);
    });

    it('should always return an object within maxBytes, or undefined when the result already fits', () => {
      fc.assert(
        fc.property(
          anyResult,
          fc.integer({ min: 256, max: 2_048 }),
          fc.integer({ min: 1, max: 8 }),
          (result, maxBytes, maxLines) => {
            const resolved = {
              maxBytes,
              maxLines,
              headLines: Math.ceil(maxLines / 2),
              tailLines: Math.floor(maxLines / 2),
            };
            const before = JSON.stringify(result);
            const outcome = truncateToolOutput({ tool: 't', result, limits: resolved });
            expect(JSON.stringify(result)).toBe(before);
            if (!outcome) {
              expect(Buffer.byteLength(before)).toBeLessThanOrEqual(maxBytes);
              return;
            }
            expect(typeof outcome.result).toBe('object');
            expect(Array.isArray(outcome.result)).toBe(false);
            expect(bytesOf(outcome.result)).toBeLessThanOrEqual(maxBytes);
            expect(outcome.record.keptBytes).toBe(bytesOf(outcome.result));
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  describe('countResultLines', () => {
    it('should count string lines, one per scalar and one per empty container', () => {
      expect(countResultLines({ result: 'a\nb\nc' })).toBe(3);
      expect(countResultLines({ a: 1, b: [true, null, 'x\ny'], c: {} })).toBe(6);
    });
  });
});
