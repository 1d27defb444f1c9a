import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { netTokens, requestShape } from './added-tokens.js';
import { estimateFixedTokens, TokenMemo } from './estimate-request.js';
import { tiktokenTokenizer as defaultTokenizer } from './tokenizer.js';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const BLOCK = 'Every answer cites the runbook. '.repeat(100);

describe('netTokens', () => {
  const memo = new TokenMemo();
  const history = [user('first'), user('second')];

  it('should be 0 when nothing changed', () => {
    const shape = requestShape('system', undefined, history);
    expect(netTokens(shape, requestShape('system', undefined, history), defaultTokenizer, memo)).toBe(0);
  });

  it('should count a block appended to the system instruction or to the contents', () => {
    const before = requestShape('system', undefined, history);
    const system = netTokens(before, requestShape(`system\n${BLOCK}`, undefined, history), defaultTokenizer, memo);
    expect(system).toBeGreaterThan(400);
    const contents = netTokens(
      before,
      requestShape('system', undefined, [...history, user(BLOCK)]),
      defaultTokenizer,
      memo,
    );
    expect(contents).toBeGreaterThan(400);
  });

  it('should net out contents rewritten as copies, and count a removal as a negative change', () => {
    const before = requestShape('system', undefined, history);
    const copies = history.map((content) => structuredClone(content));
    expect(netTokens(before, requestShape('system', undefined, copies), defaultTokenizer, memo)).toBe(0);
    const removed = netTokens(before, requestShape('system', undefined, history.slice(-1)), defaultTokenizer, memo);
    expect(removed).toBeLessThan(0);
    expect(netTokens(before, requestShape('', undefined, []), defaultTokenizer, memo)).toBeLessThan(removed);
  });

  it('should count a content pushed a second time, and one of two copies removed', () => {
    const long = [user('first'), user(BLOCK)];
    const before = requestShape('system', undefined, long);
    const once = netTokens(before, requestShape('system', undefined, [...long, user(BLOCK)]), defaultTokenizer, memo);
    const again = netTokens(before, requestShape('system', undefined, [...long, long[1]!]), defaultTokenizer, memo);
    expect(again).toBe(once);
    const twice = requestShape('system', undefined, [...long, long[1]!]);
    expect(netTokens(twice, requestShape('system', undefined, long), defaultTokenizer, memo)).toBe(-once);
  });

  it('should count a tool added as another object, and nothing for the very same tool objects', () => {
    const tool = { functionDeclarations: [{ name: 'lookup', description: 'Looks a record up.' }] };
    const before = requestShape('system', [tool], history);
    expect(netTokens(before, requestShape('system', [tool], history), defaultTokenizer, memo)).toBe(0);
    const declaration = { name: 'runbook', description: BLOCK };
    const replaced = { functionDeclarations: [...tool.functionDeclarations, declaration] };
    expect(netTokens(before, requestShape('system', [replaced], history), defaultTokenizer, memo)).toBeGreaterThan(400);
    const more = netTokens(
      before,
      requestShape('system', [tool, { functionDeclarations: [declaration] }], history),
      defaultTokenizer,
      memo,
    );
    expect(more).toBeGreaterThan(400);
  });

  it('should count a declaration pushed in place into a listed tool (as ADK adds one), from the estimate the shape was taken with', () => {
    const declarations = [{ name: 'lookup', description: 'Looks a record up.' }];
    const tool = { functionDeclarations: declarations };
    const fixed = estimateFixedTokens('system', [tool], defaultTokenizer, memo);
    const before = requestShape('system', [tool], history, fixed.systemTokens + fixed.toolTokens);
    expect(netTokens(before, requestShape('system', [tool], history), defaultTokenizer, memo)).toBe(0);
    declarations.push({ name: 'runbook', description: BLOCK });
    const added = netTokens(before, requestShape('system', [tool], history), defaultTokenizer, memo);
    expect(added).toBeGreaterThan(400);
    const now = estimateFixedTokens('system', [tool], defaultTokenizer, memo);
    expect(added).toBe(now.toolTokens - fixed.toolTokens);
  });

  it('should keep its own copy of the lists', () => {
    const contents = [...history];
    const before = requestShape('system', undefined, contents);
    contents.push(user(BLOCK));
    expect(netTokens(before, requestShape('system', undefined, contents), defaultTokenizer, memo)).toBeGreaterThan(400);
  });
});
