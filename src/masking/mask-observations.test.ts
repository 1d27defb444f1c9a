import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { isValidSplit } from '../content/content-shape.js';
import { applyMask, maskContent, maskKeepFrom } from './mask-observations.js';
import { MASKED_RESULT_KEY, type MaskHint } from './placeholder-text.js';

/** The placeholder text `maskContent` makes of one result of tool `name`, measured at `tokens`. */
function placeholderText(name: string, result: unknown, tokens: number, hint: MaskHint = {}): string {
  const content = maskContent(functionResponse(name, result as Record<string, unknown>), hint, tokens);
  return String(content.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY]);
}

const big = { logs: 'GET /api/v1/orders 200 OK '.repeat(100) };
const turn = (n: number) => [
  userText(`Turn ${n}: check the logs.`),
  functionCall('fetch_logs', { n }),
  functionResponse('fetch_logs', big),
  modelText(`Answer ${n}.`),
];
const history = [...turn(1), ...turn(2), ...turn(3)];

describe('maskKeepFrom', () => {
  // Tool results sit at 2, 6 and 10; the in-flight turn starts at 12.
  const inFlight = [
    ...history,
    userText('Turn 4: and now?'),
    functionCall('fetch_logs', { n: 4 }),
    functionResponse('fetch_logs', big),
    functionCall('fetch_logs', { n: 5 }),
    functionResponse('fetch_logs', big),
  ];

  it('should mask every result of completed turns when the in-flight turn has none', () => {
    expect(maskKeepFrom([...history, userText('Turn 4')], 1)).toBe(12);
  });

  it('should keep the last results of the in-flight turn, the latest always', () => {
    expect(maskKeepFrom(inFlight, 1)).toBe(16);
    expect(maskKeepFrom(inFlight, 0)).toBe(16);
    expect(maskKeepFrom(inFlight, 2)).toBe(14);
    expect(maskKeepFrom(inFlight, 5)).toBe(12);
  });
});

describe('maskContent', () => {
  it('should replace a large tool result with a placeholder that names the tool, its size and an excerpt', () => {
    const masked = maskContent(functionResponse('fetch_logs', big), { recallToolName: 'recall_history' }, 700);
    const text = String(masked.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY]);
    expect(text).toContain("tool 'fetch_logs'");
    expect(text).toContain(`(${JSON.stringify(big).length} characters)`);
    expect(text).toContain('recall_history');
    expect(text).toContain('GET /api/v1/orders');
    expect(masked.parts?.[0]?.functionResponse?.name).toBe('fetch_logs');
  });

  const orderResult = { receipt: 'Receipt '.repeat(200), order_id: 'ORD-7731' };
  const placeholderOf = (name: string, hint: MaskHint): string => placeholderText(name, orderResult, 700, hint);
  const readOnly = (name: string) => name === 'get_order';

  it("should never suggest calling again a tool not declared read-only, and keep the result's identifiers", () => {
    const withRecall = placeholderOf('create_order', { recallToolName: 'recall_history', isReadOnly: readOnly });
    // The id is where the result begins: the preview keeps it, no list repeats it.
    expect(withRecall).toBe(
      `Result of tool 'create_order' (${JSON.stringify(orderResult).length} characters) elided to save context; call recall_history with words from it ` +
        'to read it again. Excerpt: ORD-7731',
    );
    expect(placeholderOf('create_order', { isReadOnly: readOnly })).toContain(
      'not recoverable; calling create_order again could repeat its effect.',
    );
    // Undeclared is not read-only.
    expect(placeholderOf('create_order', {})).not.toMatch(/call create_order again/);
    // An id the preview does not show is listed.
    const late = { receipt: 'Receipt '.repeat(200), summary: 'Order placed', shipment: { tracking_id: 'TRK-7731' } };
    const text = String(
      maskContent(functionResponse('create_order', late), { recallToolName: 'recall_history' }, 700).parts?.[0]
        ?.functionResponse?.response?.[MASKED_RESULT_KEY],
    );
    expect(text).toContain(' Ids: tracking_id="TRK-7731". Excerpt: Order placed');
  });

  it('should make the same placeholder of a result whose keys a database gives back in another order', () => {
    // PostgreSQL's jsonb stores keys by length, then bytes: what ADK reloads is this object reordered.
    const stored = { service: 'checkout', logs: 'GET /api/v1/orders 200 OK '.repeat(80), at: '2026-12-05', code: 17 };
    const reloaded = { at: stored.at, code: stored.code, logs: stored.logs, service: stored.service };
    const placeholder = (result: Record<string, unknown>): string =>
      placeholderText('fetch_logs', result, 600, { recallToolName: 'recall_history' });
    expect(placeholder(reloaded)).toBe(placeholder(stored));
    // The same for nested objects, and whatever count each replica measured.
    const nested = { order: { status: 'shipped', id: 'ORD-1', notes: 'n '.repeat(300) } };
    const nestedBack = { order: { id: 'ORD-1', notes: nested.order.notes, status: 'shipped' } };
    const at = (result: Record<string, unknown>, tokens: number): string =>
      placeholderText('get_order', result, tokens);
    expect(at(nestedBack, 322)).toBe(at(nested, 300));
  });

  it("should quote an object's shortest field whole, else the first readable text, passing over base64", () => {
    const excerpt = (result: Record<string, unknown>): string =>
      placeholderText('read', result, 400).replace(/^.* Excerpt: /, '');
    // What a tool names its result by, whole, rather than the start of a long body.
    expect(excerpt({ code: 'export function main() {}\n'.repeat(40), path: 'src/main.ts' })).toBe('src/main.ts');
    expect(excerpt({ body: 'Design notes. '.repeat(40), lang: 'en', title: 'Document 5' })).toBe('Document 5');
    expect(excerpt({ data: 'iVBORw0KGgo'.repeat(40), mimeType: 'image/png' })).toBe('image/png');
    // With no field of its own, the first readable text nested; a text that begins like base64 but has words.
    expect(excerpt({ rows: [{ line: 'GET /api/v1/orders 200 OK '.repeat(10) }] })).toMatch(/^GET \/api\/v1\/orders/);
    expect(excerpt({ data: `${'A'.repeat(99)} and then words`, n: 1 })).toMatch(/^A+ and then words$/);
  });

  it('should state no excerpt when the result has no readable text', () => {
    const placeholder = (result: Record<string, unknown>): string => placeholderText('read', result, 400);
    expect(placeholder({ data: 'iVBORw0KGgo'.repeat(40) })).toMatch(/could repeat its effect\.$/);
    expect(placeholder({ rows: Array.from({ length: 200 }, (_, i) => i) })).not.toContain('Excerpt');
  });

  it('should take the same identifiers and excerpt from a result of more keys than it reads, in any key order', () => {
    // 40 identifier keys, more than the walks read of one object: the smallest are read, whatever the stored order.
    const fields = Array.from(
      { length: 40 },
      (_, i) => [`field_${String(i).padStart(3, '0')}_id`, `ID20x${i}`] as const,
    );
    const stored = Object.fromEntries([...fields].reverse());
    const reloaded = Object.fromEntries(fields);
    const placeholder = (result: Record<string, unknown>): string => placeholderText('rows', result, 800);
    expect(placeholder(stored)).toBe(placeholder(reloaded));
    expect(placeholder(stored)).toContain('Excerpt: ID20x0');
  });

  it('should make the placeholder of the live result that the one read back from a database makes', () => {
    // The process that ran the tool holds the object; every other one reads its JSON text back.
    class Money {
      constructor(readonly cents: number) {}
      toJSON(): string {
        return `${this.cents / 100} EUR`;
      }
    }
    const live = {
      at: new Date('2026-12-05T10:00:00Z'),
      amount: new Money(1200),
      order_id: 'ORD-1',
      log: 'GET /api/v1/orders 200 OK '.repeat(40),
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`address_line_${i}`, undefined])),
      customer_id: 'CUS-4411',
    };
    const reloaded = JSON.parse(JSON.stringify(live)) as Record<string, unknown>;
    const placeholder = (result: Record<string, unknown>): string => placeholderText('get_order', result, 600);
    expect(placeholder(live)).toBe(placeholder(reloaded));
    expect(placeholder(live)).toContain('customer_id="CUS-4411"');
    // What cannot be stored as JSON says so rather than stating a size.
    const cyclic: Record<string, unknown> = { log: 'x'.repeat(2_000) };
    cyclic['self'] = cyclic;
    expect(placeholder(cyclic)).toContain('(not serialisable)');
  });

  it('should make the same placeholder of any result whatever the order of its keys, at any depth', () => {
    /** `value` with every object's keys in reverse order, as a store that reorders them may give it back. */
    const reversed = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reversed);
      if (typeof value !== 'object' || value === null) return value;
      return Object.fromEntries(
        Object.entries(value)
          .reverse()
          .map(([key, child]) => [key, reversed(child)]),
      );
    };
    const placeholder = (result: unknown): string => placeholderText('query', result, 400);
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), (result) => {
        expect(placeholder(reversed(result))).toBe(placeholder(result));
      }),
      PROPERTY_RUNS,
    );
  });

  it('should suggest calling again, with the same arguments, only a tool declared read-only', () => {
    expect(placeholderOf('get_order', { recallToolName: 'recall_history', isReadOnly: readOnly })).toContain(
      'call recall_history with words from it, or get_order again, to read it again.',
    );
    expect(placeholderOf('get_order', { isReadOnly: readOnly })).toContain(
      'call get_order again with the same arguments to read it again.',
    );
  });

  it('should mask each of parallel results and state the size of each', () => {
    const small = { logs: 'GET /health 200 OK '.repeat(20) };
    const parallel = {
      role: 'user',
      parts: [...(functionResponse('a', big).parts ?? []), ...(functionResponse('b', small).parts ?? [])],
    };
    const masked = maskContent(parallel, {}, 1_000);
    expect(masked.parts?.map((part) => String(part.functionResponse?.response?.[MASKED_RESULT_KEY]))).toEqual([
      expect.stringContaining(`(${JSON.stringify(big).length} characters)`),
      expect.stringContaining(`(${JSON.stringify(small).length} characters)`),
    ]);
  });

  it('should leave small results, text and already masked results as they are', () => {
    const small = functionResponse('ping', { ok: true });
    expect(maskContent(small, {}, 5)).toBe(small);
    const text = userText('hello');
    expect(maskContent(text, {}, 5_000)).toBe(text);
    const once = maskContent(functionResponse('fetch_logs', big), {}, 700);
    expect(maskContent(once, {}, 700)).toBe(once);
  });

  it("should mask a tool result that carries the placeholder's key beside its own data", () => {
    // The eighteenth outside trial: a result with the key anywhere was taken for a placeholder and never masked.
    const forged = functionResponse('fetch_logs', { [MASKED_RESULT_KEY]: 'already elided', ...big });
    const masked = maskContent(forged, {}, 700);
    expect(masked).not.toBe(forged);
    expect(String(masked.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY])).toContain("tool 'fetch_logs'");
  });

  it('should find the preview in a bounded walk, whatever the size of the result', () => {
    const deep = { rows: Array.from({ length: 100_000 }, (_, i) => ({ id: i })), note: 'never reached' };
    const masked = maskContent(functionResponse('rows', deep), {}, 50_000);
    expect(String(masked.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY])).toContain("tool 'rows'");
  });

  it('should mask the same content the same way every time', () => {
    expect(JSON.stringify(maskContent(functionResponse('fetch_logs', big), {}, 700))).toBe(
      JSON.stringify(maskContent(functionResponse('fetch_logs', big), {}, 700)),
    );
  });
});

describe('applyMask', () => {
  const tokens = history.map((content) => (content.parts?.[0]?.functionResponse ? 700 : 10));

  it('should mask only the range, keep every call and response part in place and orphan nothing', () => {
    const masked = applyMask(history, tokens, 0, 8, {});
    expect(masked).toHaveLength(history.length);
    expect(masked[2]?.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY]).toBeDefined();
    expect(masked[6]?.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY]).toBeDefined();
    expect(masked[10]).toBe(history[10]);
    for (let split = 1; split <= history.length; split++)
      expect(isValidSplit(masked, split)).toBe(isValidSplit(history, split));
  });

  it('should keep the latest result when no user request comes before it', () => {
    const contents = [functionCall('x', {}), functionResponse('x', big)];
    expect(applyMask(contents, [10, 700], 0, maskKeepFrom(contents, 1), {})).toEqual(contents);
  });
});
