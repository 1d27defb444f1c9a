import { describe, expect, it } from 'vitest';
import { FunctionTool, type LlmRequest } from '@google/adk';
import type { Tool } from '@google/genai';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { estimateFixedTokens, type FixedTokens } from './estimate-request.js';
import { FixedPartMemo } from './fixed-part-memo.js';

/** A request's instruction and tools as ADK builds them on every step: new objects, the same values. */
async function built(names: readonly string[] = ['search', 'fetch'], instruction = 'You are a worker.') {
  const request: LlmRequest = {
    contents: [],
    config: { systemInstruction: instruction },
    liveConnectConfig: {},
    toolsDict: {},
  };
  for (const name of names) {
    const tool = new FunctionTool({ name, description: `The ${name} tool.`, execute: () => 'unused' });
    await tool.processLlmRequest({ toolContext: undefined as never, llmRequest: request });
  }
  return { instruction: request.config?.systemInstruction, tools: request.config?.tools as Tool[] };
}

/** The memo's answer for `part` in `scope`, and whether it estimated. */
function estimateIn(memo: FixedPartMemo, scope: string, part: { instruction: unknown; tools: Tool[] }) {
  let estimated = false;
  const fixed = memo.estimate(scope, part.instruction, part.tools, (): FixedTokens => {
    estimated = true;
    return estimateFixedTokens(part.instruction as string, part.tools, characterTokenizer);
  });
  expect(fixed).toEqual(estimateFixedTokens(part.instruction as string, part.tools, characterTokenizer));
  return { fixed, estimated };
}

function declarations(part: { tools: Tool[] }): Record<string, unknown>[] {
  return part.tools[0]?.functionDeclarations as unknown as Record<string, unknown>[];
}

describe('FixedPartMemo', () => {
  it("should take the estimate of a session's earlier request whose instruction and tools hold the same values", async () => {
    const memo = new FixedPartMemo();
    expect(estimateIn(memo, 's', await built()).estimated).toBe(true);
    expect(estimateIn(memo, 's', await built()).estimated).toBe(false);
  });

  it('should keep the request as built and with the tools the guard declares into it, side by side', async () => {
    const memo = new FixedPartMemo();
    estimateIn(memo, 's', await built(['search']));
    estimateIn(memo, 's', await built(['search', 'recall']));
    expect(estimateIn(memo, 's', await built(['search'])).estimated).toBe(false);
    expect(estimateIn(memo, 's', await built(['search', 'recall'])).estimated).toBe(false);
  });

  it('should estimate again a declaration edited in place, added, removed or reordered, and another instruction', async () => {
    const edits: ((part: { instruction: unknown; tools: Tool[] }) => void)[] = [
      (part) => void (declarations(part)[0]!['description'] = 'Searches the archive.'),
      (part) => void ((declarations(part)[0]!['parameters'] as Record<string, unknown>)['type'] = 'STRING'),
      (part) => void declarations(part).push({ name: 'added', description: 'A tool added between calls.' }),
      (part) => void declarations(part).pop(),
      (part) => void declarations(part).reverse(),
      (part) => void part.tools.push({ googleSearch: {} }),
      (part) => void (part.instruction = 'You are a reviewer.'),
      (part) => {
        // The same values with their keys in another order: another JSON text.
        const [first] = declarations(part);
        const { name, description, ...rest } = first!;
        declarations(part)[0] = { description, name, ...rest };
      },
    ];
    for (const edit of edits) {
      const memo = new FixedPartMemo();
      estimateIn(memo, 's', await built());
      const part = await built();
      edit(part);
      expect(estimateIn(memo, 's', part).estimated).toBe(true);
    }
  });

  it("should not take another session's estimate, and estimate every time what it cannot copy", async () => {
    const memo = new FixedPartMemo();
    estimateIn(memo, 'a', await built());
    expect(estimateIn(memo, 'b', await built()).estimated).toBe(true);
    class Declared {
      constructor(readonly name: string) {}
    }
    const odd = { instruction: 'You are a worker.', tools: [{ functionDeclarations: [new Declared('x')] }] as Tool[] };
    estimateIn(memo, 'c', odd);
    expect(estimateIn(memo, 'c', odd).estimated).toBe(true);
  });
  it("should keep one copy of an agent's tools for all its sessions, and another for other values", async () => {
    const memo = new FixedPartMemo();
    for (let session = 0; session < 10; session++)
      expect(estimateIn(memo, `session-${session}`, await built()).estimated).toBe(true);
    expect(memo.toolListsCopied).toBe(1);
    // Another session's tools of other values (the same count of tokens or not) are copied apart, and compared.
    const other = await built(['search', 'fetcx']);
    expect(estimateIn(memo, 'session-other', other).estimated).toBe(true);
    expect(memo.toolListsCopied).toBe(2);
    expect(estimateIn(memo, 'session-other', await built(['search', 'fetcx'])).estimated).toBe(false);
    expect(estimateIn(memo, 'session-0', await built()).estimated).toBe(false);
  });
});
