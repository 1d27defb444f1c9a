/**
 * A streamed model call (`runConfig.streamingMode: SSE`) is billed once (the fourteenth outside trial). ADK 2.0's
 * stream aggregator hands the after-model callback several responses of one call that are not partial: flushed
 * thoughts or text, the function call, and the usage-only response its `close()` adds, each with the usage of its
 * chunk, as Gemini sends usage on every chunk. The guard billed each: `status()` showed 1.5-2x the prompt tokens
 * and cost the provider billed. Here ADK's own `Gemini` class streams through a stand-in API client (no network).
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner, StreamingMode, type Gemini } from '@google/adk';
import type { Content, GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { logText } from '../../src/testing/index.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';
import { streamingGemini } from '../support/streaming-gemini.js';

const PRICE = { input: 0.3, cachedInput: 0.03, output: 2.5 };

interface Billed {
  prompt: number;
  output: number;
}

/** A call's chunks: a thought, then a function call (or an answer's words), then a usage-only STOP chunk. */
function chunksFor(contents: Content[], prompt: number, step: number): Partial<GenerateContentResponse>[] {
  const usage = (output: number) => ({ promptTokenCount: prompt, candidatesTokenCount: output });
  const answered = contents.at(-1)?.parts?.some((part) => part.functionResponse) ?? false;
  const thought = {
    candidates: [{ content: { role: 'model', parts: [{ text: 'Thinking. ', thought: true }] } }],
    usageMetadata: usage(5),
  };
  if (!answered)
    return [
      thought,
      {
        candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'fetch', args: { step } } }] } }],
        usageMetadata: usage(20),
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' as never }],
        usageMetadata: usage(20),
      },
    ];
  const words = ['The logs ', 'look ', 'normal.'];
  return words.map((word, i) => ({
    candidates: [
      { content: { role: 'model', parts: [{ text: word }] }, ...(i === 2 ? { finishReason: 'STOP' as never } : {}) },
    ],
    usageMetadata: usage(10 * (i + 1)),
  }));
}

/** ADK's Gemini class streaming scripted chunks, recording what a provider would bill. */
function billingGemini(billed: Billed[]): Gemini {
  return streamingGemini((request) => {
    const prompt = JSON.stringify(request.contents).length >> 2;
    const chunks = chunksFor(request.contents, prompt, billed.length);
    billed.push({ prompt, output: chunks.at(-1)?.usageMetadata?.candidatesTokenCount ?? 0 });
    return chunks;
  });
}

describe('a streamed call', () => {
  it('should be billed once in status(), whatever number of responses ADK hands over for it', async () => {
    const billed: Billed[] = [];
    const fetch = new FunctionTool({
      name: 'fetch',
      description: 'Reads logs.',
      parameters: { type: 'OBJECT', properties: { step: { type: 'INTEGER' } } } as never,
      execute: (input: unknown) => ({ logs: logText(2_000, (input as { step: number }).step) }),
    });
    const agent = new LlmAgent({
      name: 'streamer',
      model: billingGemini(billed),
      instruction: 'Read logs.',
      tools: [fetch],
    });
    const guard = new ContextGuard({ contextWindow: 32_000, prices: { 'gemini-2.5-flash': PRICE } });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const runConfig = { streamingMode: StreamingMode.SSE };
    for (let turn = 1; turn <= 4; turn++) {
      const newMessage = userMessage(`Turn ${turn}: read the logs.`);
      for await (const event of runner.runAsync({ userId: USER_ID, sessionId: id, newMessage, runConfig }))
        expect(event.errorCode).toBeUndefined();
    }
    const session = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: id });
    const status = guard.status(session, 'streamer');
    const prompt = billed.reduce((sum, call) => sum + call.prompt, 0);
    const output = billed.reduce((sum, call) => sum + call.output, 0);
    expect(billed).toHaveLength(8);
    expect(status.modelCalls).toBe(8);
    expect(status.promptTokens).toBe(prompt);
    expect(status.outputTokens).toBe(output);
    expect(status.costUsd).toBeCloseTo((prompt * PRICE.input + output * PRICE.output) / 1_000_000, 9);
  });
});
