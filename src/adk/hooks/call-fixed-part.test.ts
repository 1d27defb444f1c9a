import { describe, expect, it } from 'vitest';
import { FunctionTool, type LlmRequest } from '@google/adk';
import type { FunctionDeclaration, Tool } from '@google/genai';
import { characterTokenizer } from '../../../test/support/tokenizers.js';
import { estimateFixedTokens, TokenMemo } from '../../estimate/estimate-request.js';
import { CallFixedPart } from './call-fixed-part.js';

function tool(name: string): FunctionTool {
  return new FunctionTool({ name, description: `The ${name} tool.`, execute: () => 'unused' });
}

/** Adds `added` as ADK's step does (`processLlmRequest`, which reads the request alone): into the declarations listed. */
async function declare(request: LlmRequest, added: FunctionTool): Promise<void> {
  await added.processLlmRequest({ toolContext: undefined as never, llmRequest: request });
}

/** A request as ADK builds one: its tools added by ADK itself, in one `functionDeclarations` entry. */
async function adkRequest(systemInstruction: string): Promise<LlmRequest> {
  const request: LlmRequest = {
    contents: [],
    config: { systemInstruction },
    liveConnectConfig: {},
    toolsDict: {},
  };
  await declare(request, tool('search'));
  return request;
}

/** The estimate of the request as it stands, from scratch. */
function fresh(request: LlmRequest): ReturnType<typeof estimateFixedTokens> {
  return estimateFixedTokens(request.config?.systemInstruction, request.config?.tools, characterTokenizer);
}

function fixedPartOf(request: LlmRequest): CallFixedPart {
  return new CallFixedPart(request, characterTokenizer, new TokenMemo());
}

describe('CallFixedPart', () => {
  it('should estimate an unchanged request once', async () => {
    const request = await adkRequest('You are a worker.');
    const part = fixedPartOf(request);
    const first = part.now();
    expect(first).toEqual(fresh(request));
    expect(part.now()).toBe(first);
  });

  it('should estimate again after ADK adds a tool into the declarations already listed (the same tool object)', async () => {
    const request = await adkRequest('You are a worker.');
    const part = fixedPartOf(request);
    const before = part.now();
    const listed = request.config?.tools?.[0];
    await declare(request, tool('context_recall'));
    // ADK pushed into the listed entry: the list and the entry are the same objects, one declaration longer.
    expect(request.config?.tools?.[0]).toBe(listed);
    expect(part.now()).toEqual(fresh(request));
    expect(part.now().toolTokens).toBeGreaterThan(before.toolTokens);
  });

  it('should estimate again after a tool is added to the list, the list replaced, or a declaration replaced in place', async () => {
    const request = await adkRequest('You are a worker.');
    const part = fixedPartOf(request);
    part.now();
    (request.config!.tools as Tool[]).push({ functionDeclarations: [{ name: 'other', description: 'Another.' }] });
    expect(part.now()).toEqual(fresh(request));
    request.config!.tools = [...(request.config!.tools as Tool[]), { googleSearch: {} }];
    expect(part.now()).toEqual(fresh(request));
    const declarations = (request.config!.tools as Tool[])[0]!.functionDeclarations as FunctionDeclaration[];
    declarations[0] = { name: 'search', description: 'A much longer description of the search tool than before.' };
    expect(part.now()).toEqual(fresh(request));
  });

  it('should estimate again after the system instruction changed: replaced, appended to, or a part edited in place', async () => {
    const request = await adkRequest('You are a worker.');
    const part = fixedPartOf(request);
    part.now();
    // As ADK's `appendInstructions` does: a longer string in its place.
    request.config!.systemInstruction = 'You are a worker.\n\nAnswer in French.';
    expect(part.now()).toEqual(fresh(request));
    const parts = [{ text: 'Be brief.' }];
    request.config!.systemInstruction = { role: 'system', parts };
    expect(part.now()).toEqual(fresh(request));
    parts[0]!.text = 'Be brief, and cite every source you used in full.';
    expect(part.now()).toEqual(fresh(request));
    parts.push({ text: 'Never guess.' });
    expect(part.now()).toEqual(fresh(request));
    request.config = { ...request.config };
    request.config.systemInstruction = 'Short.';
    expect(part.now()).toEqual(fresh(request));
  });

  it('should keep nothing from one request for another', async () => {
    const one = await adkRequest('You are a worker.');
    const other = await adkRequest('You are a reviewer with a longer instruction.');
    expect(fixedPartOf(one).now()).toEqual(fresh(one));
    expect(fixedPartOf(other).now()).toEqual(fresh(other));
  });
});
