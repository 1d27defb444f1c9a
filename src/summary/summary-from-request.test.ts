import { describe, expect, it } from 'vitest';
import type { Content, GenerateContentConfig } from '@google/genai';
import {
  leadingRequestCacheable,
  leadingRequestFits,
  summaryFromRequest,
  summarizingInstruction,
} from './summary-from-request.js';
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import { charsPerTokenTokenizer } from '../estimate/tokenizer.js';

const contents: Content[] = [
  { role: 'user', parts: [{ text: 'check the logs' }] },
  { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: { size: 3 } } }] },
  { role: 'user', parts: [{ functionResponse: { name: 'fetch_logs', response: { logs: 'a b c' } } }] },
];
const config: GenerateContentConfig = {
  systemInstruction: 'You analyse server logs.',
  tools: [{ functionDeclarations: [{ name: 'fetch_logs', description: 'logs' }] }],
  toolConfig: { functionCallingConfig: { mode: 'ANY' as never, allowedFunctionNames: ['fetch_logs'] } },
  responseMimeType: 'application/json',
  responseSchema: { type: 'OBJECT' as never },
  temperature: 0.3,
  maxOutputTokens: 9_000,
};

describe('summaryFromRequest', () => {
  const built = summaryFromRequest({ config }, contents.slice(0, 2), 'INSTRUCTION', 400);

  it('keeps the system instruction, the tools and the leading contents byte-identical', () => {
    expect(JSON.stringify(built.config.systemInstruction)).toBe(JSON.stringify(config.systemInstruction));
    expect(JSON.stringify(built.config.tools)).toBe(JSON.stringify(config.tools));
    expect(JSON.stringify(built.contents.slice(0, 2))).toBe(JSON.stringify(contents.slice(0, 2)));
    expect(built.config.temperature).toBe(0.3);
  });

  it('appends the instruction as the last user turn', () => {
    expect(built.contents).toHaveLength(3);
    expect(built.contents[2]).toEqual({ role: 'user', parts: [{ text: 'INSTRUCTION' }] });
  });

  it('switches tool calls off, drops the response schema and caps the output', () => {
    expect(built.config.toolConfig?.functionCallingConfig).toEqual({ mode: 'NONE' });
    expect(built.config.responseSchema).toBeUndefined();
    expect(built.config.responseMimeType).toBeUndefined();
    expect(built.config.maxOutputTokens).toBe(400);
  });

  it('leaves the agent request as it was', () => {
    expect(config.toolConfig?.functionCallingConfig?.mode).toBe('ANY');
    expect(config.responseSchema).toBeDefined();
  });
});

describe('leadingRequestFits', () => {
  const tokenizer = charsPerTokenTokenizer;
  const instruction = summarizingInstruction(500);
  const room = tokenizer.count(instruction) + 8;
  it('fits when request, instruction and summary are within the window, not beyond', () => {
    expect(
      leadingRequestFits(
        { contents, tokens: 1_000, factor: 1, window: 1_000 + room + 500 },
        instruction,
        500,
        tokenizer,
      ),
    ).toBe(true);
    expect(
      leadingRequestFits(
        { contents, tokens: 1_000, factor: 1, window: 1_000 + room + 499 },
        instruction,
        500,
        tokenizer,
      ),
    ).toBe(false);
    expect(
      leadingRequestFits(
        { contents, tokens: 1_000, factor: 2, window: 1_000 + room + 500 },
        instruction,
        500,
        tokenizer,
      ),
    ).toBe(false);
  });
});

describe('leadingRequestCacheable', () => {
  it("should take the agent's request only from the provider's cacheable minimum on, calibrated", () => {
    expect(leadingRequestCacheable({ tokens: MIN_CACHED_PREFIX_TOKENS, factor: 1 })).toBe(true);
    expect(leadingRequestCacheable({ tokens: MIN_CACHED_PREFIX_TOKENS - 1, factor: 1 })).toBe(false);
    expect(leadingRequestCacheable({ tokens: MIN_CACHED_PREFIX_TOKENS / 2, factor: 2 })).toBe(true);
  });
});
