import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  foreignContext,
  foreignToolResult,
  functionCall,
  functionResponse,
  modelText,
  userText,
} from '../../test/support/builders.js';
import { foreignResultOf } from '../content/foreign-result.js';
import { maskContent, maskKeepFrom } from './mask-observations.js';
import { MASKED_RESULT_KEY } from './placeholder-text.js';

const pages = {
  query: 'grid storage',
  results: Array.from({ length: 40 }, (_, i) => ({
    id: `WEB-${100_000 + i}`,
    body: 'Evidence on storage costs. '.repeat(8),
  })),
};
const hint = { recallToolName: 'recall_context' };

/** The text parts of `content`. */
const texts = (content: { parts?: { text?: string }[] }): string[] =>
  (content.parts ?? []).map((part) => part.text ?? '');

describe("masking another agent's results", () => {
  it("should replace the result's JSON by a placeholder ADK would have rendered, keeping who called what", () => {
    const content = foreignToolResult('searcher_web', 'web_search', pages);
    const masked = maskContent(content, hint, 3_000);
    const [lead, result] = texts(masked);
    expect(lead).toBe('For context:');
    const read = foreignResultOf(masked.parts?.[1]);
    expect(read).toMatchObject({ author: 'searcher_web', tool: 'web_search' });
    const placeholder = JSON.parse(read?.text ?? '') as Record<string, string>;
    expect(Object.keys(placeholder)).toEqual([MASKED_RESULT_KEY]);
    expect(placeholder[MASKED_RESULT_KEY]).toContain(`(${JSON.stringify(pages).length} characters)`);
    expect(placeholder[MASKED_RESULT_KEY]).toContain('call recall_context with words from it');
    expect(placeholder[MASKED_RESULT_KEY]).toContain('WEB-100000');
    expect(result?.length).toBeLessThan(texts(content)[1]?.length ?? 0);
  });

  it("should never offer to call the other agent's tool again, which this agent may not have", () => {
    const masked = maskContent(foreignToolResult('a', 'get_order', pages), { isReadOnly: () => true }, 3_000);
    expect(texts(masked)[1]).toContain('not recoverable by this agent');
    expect(texts(masked)[1]).not.toContain('get_order again');
  });

  it('should keep what the other agent said and called, and a result shorter than its placeholder', () => {
    const content = {
      role: 'user' as const,
      parts: [
        { text: 'For context:' },
        { text: `[searcher] said: ${'A long finding. '.repeat(100)}` },
        { text: '[searcher] called tool `web_search` with parameters: {"query":"x"}' },
        { text: '[searcher] tool `ping` returned result: {"ok":true}' },
        { text: `[searcher] tool \`web_search\` returned result: ${JSON.stringify(pages)}` },
      ],
    };
    const masked = maskContent(content, hint, 3_000);
    expect(masked.parts?.slice(0, 4)).toEqual(content.parts.slice(0, 4));
    expect(texts(masked)[4]).toContain(MASKED_RESULT_KEY);
  });

  it('should give the same bytes for a result whose keys a database gave back in another order', () => {
    const reordered = { results: pages.results.map(({ body, id }) => ({ body, id })), query: pages.query };
    const a = maskContent(foreignToolResult('s', 'web_search', pages), hint, 3_000);
    const b = maskContent(foreignToolResult('s', 'web_search', reordered), hint, 3_000);
    expect(texts(b)).toEqual(texts(a));
  });

  it('should mask a string result, and leave a placeholder as it is', () => {
    const log = foreignToolResult('runner', 'run_tests', `FAIL src/app.test.ts\n${'at line 12\n'.repeat(300)}`);
    const masked = maskContent(log, hint, 1_000);
    expect(texts(masked)[1]).toContain("tool 'run_tests'");
    expect(maskContent(masked, hint, 1_000)).toBe(masked);
  });

  it('should mask a result that merely carries the placeholder key among others, and read the A2A form', () => {
    const carrying = foreignToolResult('s', 'web_search', { [MASKED_RESULT_KEY]: 'note', ...pages });
    expect(texts(maskContent(carrying, hint, 3_000))[1]).toMatch(
      /^\[s\] tool `web_search` returned result: \{"context_guard_masked":"Result of tool 'web_search'/,
    );
    const a2a = foreignContext(`[remote] web_search tool returned result: ${JSON.stringify(pages)}`);
    expect(foreignResultOf(a2a.parts?.[1])).toMatchObject({ author: 'remote', tool: 'web_search' });
    expect(texts(maskContent(a2a, hint, 3_000))[1]).toContain(MASKED_RESULT_KEY);
  });

  it('should leave a content that opens with `For context:` but is not in the words ADK writes', () => {
    const typed = {
      role: 'user' as const,
      parts: [
        { text: 'For context:' },
        { text: 'I pasted this:' },
        ...(foreignToolResult('bot', 'x', pages).parts ?? []).slice(1),
      ],
    };
    expect(maskContent(typed, hint, 3_000)).toBe(typed);
  });

  it("should leave a user's own message that quotes such words alone", () => {
    const quoted = userText(`[bot] tool \`x\` returned result: ${JSON.stringify(pages)}`);
    expect(maskContent(quoted, hint, 3_000)).toBe(quoted);
  });

  it('should leave a small content alone', () => {
    const small = foreignToolResult('s', 'web_search', pages);
    expect(maskContent(small, hint, 100)).toBe(small);
  });
});

describe("maskKeepFrom with other agents' results in the in-flight turn", () => {
  const turn = [
    userText('Next section: storage.'),
    foreignContext('[searcher] called tool `web_search` with parameters: {}'),
    foreignToolResult('searcher', 'web_search', pages),
    foreignToolResult('searcher', 'news_search', pages),
  ];

  it('should never reach what this agent was just handed and has not acted on', () => {
    expect(maskKeepFrom(turn, 3)).toBe(0);
    const answered = [...turn, functionCall('write', {}), functionResponse('write', { ok: 'yes' })];
    expect(maskKeepFrom([...answered, foreignToolResult('critic', 'review', pages)], 1)).toBe(5);
  });

  it('should reach those before its latest answer of the turn, and only those, in a loop that runs it again', () => {
    // The sixtieth outside trial: a LoopAgent's writer, with no tools, was summarized on 43 of its 60 calls.
    const looped = [...turn, modelText('Draft 1.'), foreignToolResult('searcher', 'web_search', pages)];
    expect(maskKeepFrom(looped, 3)).toBe(4);
    // A call of its own is no answer: what it was handed before it stays while it works on it.
    const working = [...turn, functionCall('write', {}), functionResponse('write', { ok: 'yes' })];
    expect(maskKeepFrom(working, 3)).toBe(0);
    const thinking: Content = { role: 'model', parts: [{ text: 'Planning the draft.', thought: true }] };
    expect(maskKeepFrom([...turn, thinking, foreignToolResult('searcher', 'web_search', pages)], 3)).toBe(0);
    // Review 53: a remark streamed before a call is stored as a content of its own; it is no answer either.
    const remark = [...turn, modelText('Let me check the ledger first.'), functionCall('ledger', {})];
    expect(maskKeepFrom([...remark, functionResponse('ledger', { ok: 'yes' })], 3)).toBe(0);
  });

  it('should reach those before the results it keeps, which it has acted on since', () => {
    const own = [...turn, functionCall('write', {}), functionResponse('write', { ok: 'yes' })];
    own.push(functionCall('write', {}), functionResponse('write', { ok: 'again' }));
    expect(maskKeepFrom(own, 1)).toBe(7);
  });
});
