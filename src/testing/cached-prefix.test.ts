import type { LlmRequest } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { cachedPrefixTokens, snapshotRequest } from './cached-prefix.js';
import { ratioTokenCounter } from './ground-truth.js';

const count = ratioTokenCounter(1);
const text = (role: string, body: string): Content => ({ role, parts: [{ text: body }] });
const request = (contents: Content[], system = 'You are a helper.'): LlmRequest => ({
  contents,
  config: { systemInstruction: system },
  toolsDict: {},
  liveConnectConfig: {},
});

const history = [text('user', 'a'.repeat(8_000)), text('model', 'b'.repeat(4_000))];

describe('cachedPrefixTokens', () => {
  it('should count the tokens the request shares with the previous one, system instruction included', () => {
    const previous = snapshotRequest(request(history));
    const next = request([...history, text('user', 'c'.repeat(400))]);
    expect(cachedPrefixTokens(previous, next, count, 1, count(next))).toBe(count(request(history)));
  });

  it('should end the prefix at the first part that differs, even inside a content', () => {
    const two: Content = { role: 'user', parts: [{ text: 'x'.repeat(4_000) }, { text: 'y'.repeat(4_000) }] };
    const changed: Content = { role: 'user', parts: [{ text: 'x'.repeat(4_000) }, { text: 'z'.repeat(4_000) }] };
    const cached = cachedPrefixTokens(
      snapshotRequest(request([two])),
      request([changed]),
      count,
      1,
      count(request([changed])),
    );
    expect(cached).toBe(count(request([{ role: 'user', parts: [{ text: 'x'.repeat(4_000) }] }])));
  });

  it('should cache nothing when the system instruction changed, or the prefix is under the minimum', () => {
    const previous = snapshotRequest(request(history));
    expect(
      cachedPrefixTokens(
        previous,
        request(history, 'Another system prompt.'),
        count,
        1,
        count(request(history, 'Another system prompt.')),
      ),
    ).toBe(0);
    expect(
      cachedPrefixTokens(previous, request(history), count, count(request(history)) + 1, count(request(history))),
    ).toBe(0);
    expect(cachedPrefixTokens(undefined, request(history), count, 1, count(request(history)))).toBe(0);
  });

  it('should cache only the system instruction after a summary replaced the first content', () => {
    const previous = snapshotRequest(request(history));
    expect(
      cachedPrefixTokens(
        previous,
        request([text('user', 'summary'), ...history.slice(1)]),
        count,
        1,
        count(request([text('user', 'summary'), ...history.slice(1)])),
      ),
    ).toBe(count(request([])));
  });
});
