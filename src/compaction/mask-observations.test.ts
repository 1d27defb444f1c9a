import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { isValidSplit } from '../content/content-shape.js';
import { applyMask, maskContent, maskKeepFrom, MASKED_RESULT_KEY } from './mask-observations.js';

const big = { logs: 'GET /api/v1/orders 200 OK '.repeat(100) };
const turn = (n: number) => [userText(`Turn ${n}: check the logs.`), functionCall('fetch_logs', { n }), functionResponse('fetch_logs', big), modelText(`Answer ${n}.`)];
const history = [...turn(1), ...turn(2), ...turn(3)];

describe('maskKeepFrom', () => {
  // Tool results sit at 2, 6 and 10; the in-flight turn starts at 12.
  const inFlight = [...history, userText('Turn 4: and now?'), functionCall('fetch_logs', { n: 4 }), functionResponse('fetch_logs', big), functionCall('fetch_logs', { n: 5 }), functionResponse('fetch_logs', big)];

  it('should mask every result of completed turns when the in-flight turn has none', () => {
    expect(maskKeepFrom([...history, userText('Turn 4')], 1)).toBe(12);
  });

  it('should keep the last results of the in-flight turn, the latest always', () => {
    expect(maskKeepFrom(inFlight, 1)).toBe(16);
    expect(maskKeepFrom(inFlight, 0)).toBe(16);
    expect(maskKeepFrom(inFlight, 2)).toBe(14);
    expect(maskKeepFrom(inFlight, 5)).toBe(12);
  });

  it('should keep the latest result when no user request comes before it', () => {
    const contents = [functionCall('x', {}), functionResponse('x', big)];
    expect(applyMask(contents, 0, maskKeepFrom(contents, 1), {})).toEqual(contents);
  });
});

describe('maskContent', () => {
  it('should replace a large tool result with a placeholder that names the tool, its size and how it began', () => {
    const masked = maskContent(functionResponse('fetch_logs', big), { recallToolName: 'recall_history' });
    const text = String(masked.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY]);
    expect(text).toContain("tool 'fetch_logs'");
    expect(text).toContain(`${JSON.stringify(big).length} characters`);
    expect(text).toContain('recall_history');
    expect(text).toContain('GET /api/v1/orders');
    expect(masked.parts?.[0]?.functionResponse?.name).toBe('fetch_logs');
  });

  it('should leave small results, text and already masked results as they are', () => {
    const small = functionResponse('ping', { ok: true });
    expect(maskContent(small, {})).toBe(small);
    const text = userText('hello');
    expect(maskContent(text, {})).toBe(text);
    const once = maskContent(functionResponse('fetch_logs', big), {});
    expect(maskContent(once, {})).toBe(once);
  });

  it('should mask the same content the same way every time', () => {
    expect(JSON.stringify(maskContent(functionResponse('fetch_logs', big), {}))).toBe(JSON.stringify(maskContent(functionResponse('fetch_logs', big), {})));
  });
});

describe('applyMask', () => {
  it('should mask only the range, keep every call and response part in place and orphan nothing', () => {
    const masked = applyMask(history, 0, 8, {});
    expect(masked).toHaveLength(history.length);
    expect(masked[2]?.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY]).toBeDefined();
    expect(masked[6]?.parts?.[0]?.functionResponse?.response?.[MASKED_RESULT_KEY]).toBeDefined();
    expect(masked[10]).toBe(history[10]);
    for (let split = 1; split <= history.length; split++) expect(isValidSplit(masked, split)).toBe(isValidSplit(history, split));
  });
});
