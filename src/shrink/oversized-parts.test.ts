import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content, Part } from '@google/genai';
import { HEAVY_PROPERTY_RUNS, PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import {
  contentOf,
  functionCall,
  functionResponse,
  inlineDataPart,
  textOfLength,
  userText,
} from '../../test/support/builders.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { safeJson } from '../estimate/json-text.js';
import { shrinkContentsToBudget, shrinkJsonObject, shrinkPart } from './oversized-parts.js';
import { markRenderedCodeOutputs, renderedCodeOutput } from '../content/code-output.js';

/** A string value of the given kind and length: prose, quotes (escaped in JSON) or non-ASCII. */
const stringValue = fc
  .record({ kind: fc.constantFrom('prose', 'quotes', 'backslashes', 'cjk', 'emoji'), length: fc.nat(6_000) })
  .map(({ kind, length }) => {
    if (kind === 'quotes') return '"'.repeat(length);
    if (kind === 'backslashes') return '\\'.repeat(length);
    if (kind === 'cjk') return '漢'.repeat(length);
    if (kind === 'emoji') return '😀'.repeat(Math.floor(length / 2));
    return textOfLength(length);
  });

/** A tool result: long strings, long arrays, many keys, nesting. */
const toolResult: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 6 }),
  fc.oneof(
    stringValue,
    fc.array(
      fc.oneof(
        fc.integer(),
        stringValue.map((text) => text.slice(0, 40)),
      ),
      { maxLength: 120 },
    ),
    fc.dictionary(fc.string({ maxLength: 4 }), stringValue, { maxKeys: 3 }),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  { minKeys: 1, maxKeys: 6 },
);

const part: fc.Arbitrary<Part> = fc.oneof(
  stringValue.map((text) => ({ text })),
  fc
    .record({ name: fc.constant('fetch_logs'), response: toolResult })
    .map((functionResponse) => ({ functionResponse })),
  fc.record({ name: fc.constant('write_file'), args: toolResult }).map((functionCall) => ({ functionCall })),
  fc.nat(20_000).map((length) => inlineDataPart('image/png', 'A'.repeat(length))),
);

const contents: fc.Arbitrary<Content[]> = fc.array(
  fc.record({ role: fc.constantFrom('user', 'model'), parts: fc.array(part, { minLength: 1, maxLength: 3 }) }),
  { minLength: 1, maxLength: 5 },
);

function estimateAll(list: readonly Content[]): number {
  return list.reduce((sum, content) => sum + estimateContentTokens(content, characterTokenizer), 0);
}

describe('shrinkJsonObject', () => {
  describe('degenerate limits', () => {
    it('should still return a small JSON object for a limit of 0', () => {
      const shrunk = shrinkJsonObject({ logs: 'x'.repeat(1_000) }, 0);
      expect(Object.keys(shrunk)).toEqual(['truncated_result']);
      // At most 64 characters of JSON text survive, escaped once more inside a string.
      expect(safeJson(shrunk).length).toBeLessThanOrEqual(160);
    });
  });

  describe('objects that fit', () => {
    it('should return the very same object', () => {
      const response = { status: 'ok', rows: [1, 2, 3] };
      expect(shrinkJsonObject(response, 1_000)).toBe(response);
    });
  });

  describe('objects that are cut', () => {
    it('should cut long strings head and tail and keep the other fields', () => {
      const response = { status: 'ok', logs: `BEGIN${'x'.repeat(10_000)}END` };
      const shrunk = shrinkJsonObject(response, 1_000);
      expect(shrunk['status']).toBe('ok');
      expect(shrunk['logs']).toMatch(/^BEGINx+\n\[\.\.\. omitted \d+ of 10008 characters \.\.\.\]\nx+END$/);
      expect(safeJson(shrunk).length).toBeLessThanOrEqual(1_000);
    });

    it('should keep the first and last 20 items of a long array and say how many were left out', () => {
      const response = { rows: Array.from({ length: 100 }, (_, i) => i) };
      const rows = shrinkJsonObject(response, 250)['rows'];
      // 20 first + a marker + 20 last; 100 - 40 = 60 left out
      expect(rows).toEqual([
        ...Array.from({ length: 20 }, (_, i) => i),
        '[... omitted 60 of 100 items ...]',
        ...Array.from({ length: 20 }, (_, i) => 80 + i),
      ]);
    });

    it('should fall back to the head and tail of the JSON text when nothing inside can be cut', () => {
      const response = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`key${i}`, i]));
      const shrunk = shrinkJsonObject(response, 400);
      expect(Object.keys(shrunk)).toEqual(['truncated_result']);
      expect(shrunk['truncated_result']).toMatch(/^\{"key0":0,/);
      expect(safeJson(shrunk).length).toBeLessThanOrEqual(400);
    });

    it('should account for escaping when the JSON text is full of quotes', () => {
      // 300 values of 20 quotes: each is 42 characters of JSON ("\"\"…\"") and doubles again inside a string.
      const response = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`q${i}`, '"'.repeat(20)]));
      expect(safeJson(shrinkJsonObject(response, 400)).length).toBeLessThanOrEqual(400);
    });
  });

  describe('laws', () => {
    it('should stay a JSON object within maxChars', () => {
      fc.assert(
        fc.property(toolResult, fc.integer({ min: 160, max: 3_000 }), (response, maxChars) => {
          const json = safeJson(shrinkJsonObject(response, maxChars));
          expect(json.length).toBeLessThanOrEqual(maxChars);
          const parsed: unknown = JSON.parse(json);
          expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never mutate its input', () => {
      fc.assert(
        fc.property(toolResult, fc.integer({ min: 0, max: 3_000 }), (response, maxChars) => {
          const before = structuredClone(response);
          shrinkJsonObject(response, maxChars);
          expect(response).toEqual(before);
        }),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('shrinkPart', () => {
  describe('parts that fit or cannot be cut', () => {
    it('should return the very same part', () => {
      const small = { text: 'short' };
      expect(shrinkPart(small, 100)).toBe(small);
      const empty: Part = {};
      expect(shrinkPart(empty, 100)).toBe(empty);
    });
  });

  describe('parts that are cut', () => {
    it('should cut text and keep the other fields', () => {
      const shrunk = shrinkPart({ text: 't'.repeat(5_000), thought: true }, 300);
      expect(shrunk.thought).toBe(true);
      expect(shrunk.text?.length).toBeLessThanOrEqual(300);
    });

    it('should cut a function response into a new part and leave the original alone', () => {
      const original = functionResponse('fetch_logs', { logs: 'l'.repeat(5_000) }).parts?.[0] ?? {};
      const shrunk = shrinkPart(original, 500);
      expect(shrunk).not.toBe(original);
      expect(shrunk.functionResponse?.name).toBe('fetch_logs');
      expect(safeJson(shrunk.functionResponse?.response).length).toBeLessThanOrEqual(500);
      expect(String(original.functionResponse?.response?.['logs'])).toHaveLength(5_000);
    });

    it('should cut function call arguments', () => {
      const original = functionCall('write_file', { content: 'c'.repeat(5_000) }).parts?.[0] ?? {};
      expect(safeJson(shrinkPart(original, 500).functionCall?.args).length).toBeLessThanOrEqual(500);
    });

    it('should replace media larger than four times the limit by a note', () => {
      // 2,000 base64 characters > 4 × 400
      expect(shrinkPart(inlineDataPart('image/png', 'A'.repeat(2_000)), 400)).toEqual({
        text: '[image/png omitted by context_guard: too large for the context window]',
      });
      const small = inlineDataPart('image/png', 'A'.repeat(1_000));
      expect(shrinkPart(small, 400)).toBe(small);
    });
  });
});

describe('shrinkContentsToBudget', () => {
  describe('contents that fit', () => {
    it('should return the same contents and their estimate', () => {
      const list = [userText('hello')];
      const result = shrinkContentsToBudget(list, 100, characterTokenizer);
      expect(result.contents[0]).toBe(list[0]);
      // 4 + 3 + 5 = 12
      expect(result.tokens).toBe(12);
    });
  });

  describe('contents that do not fit', () => {
    it('should cut a large text until the contents fit', () => {
      const list = [userText('s'.repeat(10_000))];
      const result = shrinkContentsToBudget(list, 2_000, characterTokenizer);
      expect(result.tokens).toBeLessThanOrEqual(2_000);
      expect(list[0]?.parts?.[0]?.text).toHaveLength(10_000);
    });

    it('should leave small parts alone, even when that means not fitting', () => {
      const list = Array.from({ length: 10 }, (_, i) => userText(`${i}${'m'.repeat(399)}`));
      const result = shrinkContentsToBudget(list, 100, characterTokenizer);
      // 10 × (4 + 3 + 400) = 4,070: nothing to cut below the 512-character floor
      expect(result.tokens).toBe(4_070);
      result.contents.forEach((content, i) => expect(content).toBe(list[i]));
    });
  });

  describe('laws', () => {
    it('should return the estimate of the contents it returns', () => {
      fc.assert(
        fc.property(contents, fc.nat(20_000), (list, budget) => {
          const result = shrinkContentsToBudget(list, budget, characterTokenizer);
          expect(result.tokens).toBe(estimateAll(result.contents));
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should never return contents larger than it was given', () => {
      fc.assert(
        fc.property(contents, fc.nat(20_000), (list, budget) => {
          expect(estimateAll(shrinkContentsToBudget(list, budget, characterTokenizer).contents)).toBeLessThanOrEqual(
            estimateAll(list),
          );
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should fit the budget, or leave no part that could still be cut', () => {
      fc.assert(
        fc.property(contents, fc.nat(20_000), (list, budget) => {
          const result = shrinkContentsToBudget(list, budget, characterTokenizer);
          if (result.tokens <= budget) return;
          for (const content of result.contents) {
            for (const kept of content.parts ?? []) {
              // Either below the size shrinking ignores, or already at its smallest form.
              if (safeJson(kept).length >= 512)
                expect(safeJson(shrinkPart(kept, 200)).length).toBeGreaterThanOrEqual(safeJson(kept).length);
            }
          }
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should never mutate its input', () => {
      fc.assert(
        fc.property(contents, fc.nat(20_000), (list, budget) => {
          const before = structuredClone(list);
          shrinkContentsToBudget(list, budget, characterTokenizer);
          expect(list).toEqual(before);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });
  });
});

describe('shrinkContentsToBudget on a protected message', () => {
  /** A user message of `unit` repeated, escape-heavy or not, and the rest of the history. */
  const escapeUnits = fc.constantFrom(
    'plain words ',
    '{"k":"v \\"q\\""}, ',
    'C:\\dir\\file ',
    '\u001b[1mB\u001b[0m ',
    'a\ud800 ',
    '漢字 ',
    '😀 ',
  );

  it('should cut the message to what fits whenever the rest leaves room, never to a floor', () => {
    fc.assert(
      fc.property(
        escapeUnits,
        fc.integer({ min: 200, max: 4_000 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1_000, max: 8_000 }),
        (unit, times, others, budget) => {
          const message = userText(`Please review: ${unit.repeat(times)}`);
          const list: Content[] = [...Array.from({ length: others }, (_, i) => userText(`earlier ${i}`)), message];
          const rest = estimateAll(list.slice(0, -1));
          fc.pre(estimateAll(list) > budget);
          const result = shrinkContentsToBudget(list, budget, characterTokenizer, {
            protect: (content) => content === message,
          });
          // Room for the message's framing and a marker: the result fits and keeps most of that room.
          expect(result.tokens).toBeLessThanOrEqual(budget);
          expect(result.tokens - rest).toBeGreaterThan((budget - rest) * 0.5);
          expect(result.contents[others]?.parts?.[0]?.text?.startsWith('Please review: ')).toBe(true);
        },
      ),
      PROPERTY_RUNS,
    );
  });

  it('should make every round smaller: the estimate never grows and the input is never changed', () => {
    fc.assert(
      fc.property(escapeUnits, fc.integer({ min: 200, max: 4_000 }), fc.nat(8_000), (unit, times, budget) => {
        const list = [userText(unit.repeat(times))];
        const before = structuredClone(list);
        const result = shrinkContentsToBudget(list, budget, characterTokenizer);
        expect(result.tokens).toBeLessThanOrEqual(estimateAll(list));
        expect(result.tokens).toBe(estimateAll(result.contents));
        expect(list).toEqual(before);
      }),
      PROPERTY_RUNS,
    );
  });
});

describe('shrinkContentsToBudget on a content of many parts', () => {
  it('should keep its first and last parts and fit the budget, though every part is small', () => {
    const parts = Array.from({ length: 20_000 }, (_, i) => ({ text: `row ${i}: ok\n` }));
    const list = [contentOf('user', ...parts)];
    const result = shrinkContentsToBudget(list, 20_000, characterTokenizer);
    expect(result.tokens).toBeLessThanOrEqual(20_000);
    expect(result.tokens).toBeGreaterThan(10_000);
    const kept = result.contents[0]?.parts ?? [];
    expect(kept[0]).toBe(parts[0]);
    expect(kept[kept.length - 1]).toBe(parts[19_999]);
    expect(kept.some((part) => /^\[\.\.\. omitted \d+ of 20000 parts \.\.\.\]$/.test(part.text ?? ''))).toBe(true);
  });

  it('should drop middle parts of 1 KB rather than cut each, and use most of the budget', () => {
    // A pasted document in 60 parts: before, each part was cut and then parts dropped by the same ratio again,
    // and the content came out at a third of its budget.
    const parts: Part[] = Array.from({ length: 60 }, (_, i) => ({ text: `${i}: ${textOfLength(1_000)}` }));
    const list = [contentOf('user', ...parts)];
    const tokens = estimateContentTokens(list[0]!, characterTokenizer);
    for (const share of [0.9, 0.4]) {
      const result = shrinkContentsToBudget(list, Math.floor(tokens * share), characterTokenizer);
      expect(result.tokens).toBeLessThanOrEqual(tokens * share);
      expect(result.tokens).toBeGreaterThan(tokens * share * 0.8);
      const kept = result.contents[0]?.parts ?? [];
      // Every part kept is whole; one marker stands for the ones left out.
      expect(kept.filter((part) => !parts.includes(part))).toHaveLength(1);
      expect(kept[0]).toBe(parts[0]);
      expect(kept.at(-1)).toBe(parts[59]);
    }
  });

  it('should still cut a part too large to be kept whole in the head or the tail', () => {
    const parts = [
      { text: `big: ${textOfLength(40_000)}` },
      ...Array.from({ length: 30 }, (_, i) => ({ text: `row ${i}` })),
    ];
    const result = shrinkContentsToBudget([contentOf('user', ...parts)], 10_000, characterTokenizer);
    expect(result.tokens).toBeLessThanOrEqual(10_000);
    const first = result.contents[0]?.parts?.[0]?.text ?? '';
    expect(first.startsWith('big: ')).toBe(true);
  });

  it('should ask whether a content is protected once per content, not once per part', () => {
    const parts = Array.from({ length: 5_000 }, (_, i) =>
      i % 2 === 0 ? { text: `row ${i}` } : inlineDataPart('image/png', 'A'.repeat(64)),
    );
    let asked = 0;
    shrinkContentsToBudget([contentOf('user', ...parts)], 100, characterTokenizer, {
      protect: () => {
        asked += 1;
        return false;
      },
    });
    expect(asked).toBe(1);
  });
});

describe('shrinkContentsToBudget at its floor', () => {
  it.each([
    ['emoji', '😀🚀👩\u200d💻 '],
    ['CJK', '漢字テキスト '],
    ['quotes', '"q" '],
    ['log', 'WARN ok\nGET /api/v1/orders 200 latency_ms=944 cache=miss shard=7 region=eu-west-1\n'],
  ])('should keep the first 60 characters of a %s text when nothing fits', (_label, unit) => {
    const message = userText(`Please read this: ${unit.repeat(2_000)}`);
    const result = shrinkContentsToBudget([message], 0, characterTokenizer);
    const text = result.contents[0]?.parts?.[0]?.text ?? '';
    expect(text.length).toBeLessThan(1_000);
    // Head+tail at the floor: the head is about half of it.
    expect(text.startsWith(`Please read this: ${unit.repeat(4)}`.slice(0, 60))).toBe(true);
  });
});

describe('shrinkContentsToBudget: a code run output ADK sent as text', () => {
  it('should stay a code run output once cut, not become a user message', () => {
    const output = textOfLength(40_000);
    const run: Content = { role: 'user', parts: [{ text: `\`\`\`tool_output\n${output}\n\`\`\`` }] };
    markRenderedCodeOutputs([run], ['```tool_output\n', '\n```'], (ran) => ran === output);
    const { contents } = shrinkContentsToBudget([userText('Totals?'), run], 2_000, characterTokenizer);
    expect(contents[1]).not.toBe(run);
    expect(contents[1]?.parts?.[0]?.text?.length).toBeLessThan(40_000);
    expect(renderedCodeOutput(contents[1])).toBeDefined();
  });
});
