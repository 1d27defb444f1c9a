import { describe, expect, it } from 'vitest';
import type { Context, LlmRequest } from '@google/adk';
import { tiktokenTokenizer } from '../../estimate/tokenizer.js';
import { ContextStatusDeclarer } from './context-status-tool.js';

describe('the context_status declaration', () => {
  it('should cost the o200k tokens README states, counted as its declaration is sent', async () => {
    const request = { contents: [], toolsDict: {}, config: {} } as unknown as LlmRequest;
    await new ContextStatusDeclarer().declare({} as Context, request);
    // Beside the agent's own tools it adds its declaration to their list: that JSON is what it costs.
    const declarations = request.config?.tools?.flatMap((tool) =>
      'functionDeclarations' in tool ? (tool.functionDeclarations ?? []) : [],
    );
    expect(declarations?.map((declaration) => declaration.name)).toEqual(['context_status']);
    const tokens = tiktokenTokenizer.count(JSON.stringify(declarations?.[0]));
    console.log(`context_status declaration: ${tokens} o200k tokens`);
    expect(tokens).toBeLessThanOrEqual(52);
  });
});
