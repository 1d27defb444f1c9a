import {
  BaseLlm,
  Gemini,
  isBaseLlm,
  LlmAgent,
  type BaseLlmConnection,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { installRetryingModel, offerRetry, retryingModel } from './retrying-model.js';

/** A model that streams `chunks` (the same objects every time), or throws `error` before any. */
class StreamingModel extends BaseLlm {
  calls = 0;
  constructor(
    private readonly chunks: LlmResponse[],
    private readonly error?: (call: number) => Error | undefined,
  ) {
    super({ model: 'streaming-model' });
  }
  override async *generateContentAsync(): AsyncGenerator<LlmResponse, void> {
    const failure = this.error?.(this.calls);
    this.calls++;
    if (failure) throw failure;
    for (const chunk of this.chunks) yield chunk;
  }
  override async connect(): Promise<BaseLlmConnection> {
    throw new Error('not live');
  }
}

const tooLong = () =>
  new Error(
    JSON.stringify({
      error: {
        code: 400,
        message: 'The input token count (9000) exceeds the maximum number of tokens allowed (8000).',
      },
    }),
  );

async function drain(model: BaseLlm, request: LlmRequest, stream = true): Promise<LlmResponse[]> {
  const out: LlmResponse[] = [];
  for await (const response of model.generateContentAsync(request, stream)) out.push(response);
  return out;
}

function request(): LlmRequest {
  return { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], toolsDict: {}, liveConnectConfig: {} };
}

describe('retryingModel', () => {
  it('should keep everything ADK checks on a Gemini model: its class, its brands, its name and useInteractionsApi', () => {
    const gemini = new Gemini({ model: 'gemini-2.5-flash', apiKey: 'test-key', useInteractionsApi: true });
    const wrapped = retryingModel(gemini);
    expect(wrapped).not.toBe(gemini);
    expect(wrapped instanceof Gemini).toBe(true);
    // ADK's isGemini (not exported): the brand, read through the wrapper.
    const brand = Symbol.for('google.adk.geminiModel');
    expect(brand in wrapped && (wrapped as unknown as Record<symbol, unknown>)[brand]).toBe(true);
    expect(isBaseLlm(wrapped)).toBe(true);
    expect(wrapped.model).toBe('gemini-2.5-flash');
    expect((wrapped as Gemini).useInteractionsApi).toBe(true);
    expect(retryingModel(wrapped)).toBe(wrapped);
  });

  it('should yield every streamed response untouched, the same objects in the same order', async () => {
    const chunks = [{ partial: true }, { partial: true }, { content: { role: 'model', parts: [{ text: 'done' }] } }];
    const inner = new StreamingModel(chunks);
    const sent = request();
    let offered = 0;
    offerRetry(sent, async () => (offered++, true));
    const responses = await drain(retryingModel(inner), sent);
    expect(responses).toHaveLength(3);
    responses.forEach((response, at) => expect(response).toBe(chunks[at]));
    expect({ calls: inner.calls, offered }).toEqual({ calls: 1, offered: 0 });
  });

  it('should retry an offered request once, and throw the second rejection', async () => {
    const inner = new StreamingModel([{ content: { role: 'model', parts: [{ text: 'ok' }] } }] as LlmResponse[], () =>
      tooLong(),
    );
    const sent = request();
    let offered = 0;
    offerRetry(sent, async () => (offered++, true));
    await expect(drain(retryingModel(inner), sent)).rejects.toThrow(/exceeds the maximum/);
    expect({ calls: inner.calls, offered }).toEqual({ calls: 2, offered: 1 });
  });

  it('should answer from the retry when the offer takes it', async () => {
    const answer = { content: { role: 'model', parts: [{ text: 'ok' }] } } as LlmResponse;
    const inner = new StreamingModel([answer], (call) => (call === 0 ? tooLong() : undefined));
    const sent = request();
    offerRetry(sent, async () => true);
    expect(await drain(retryingModel(inner), sent)).toEqual([answer]);
    expect(inner.calls).toBe(2);
  });

  it('should throw the error untouched for a request no guard offered, or when the offer declines', async () => {
    const inner = new StreamingModel([], () => tooLong());
    await expect(drain(retryingModel(inner), request())).rejects.toThrow(/exceeds the maximum/);
    const declined = request();
    offerRetry(declined, async () => false);
    await expect(drain(retryingModel(inner), declined)).rejects.toThrow(/exceeds the maximum/);
    expect(inner.calls).toBe(2);
  });
});

describe('installRetryingModel', () => {
  it('should wrap the model an agent inherits on the ancestor that owns it, once', () => {
    const inner = new StreamingModel([]);
    const child = new LlmAgent({ name: 'child', instruction: 'x' });
    const parent = new LlmAgent({ name: 'parent', model: inner, instruction: 'x', subAgents: [child] });
    installRetryingModel(child);
    const wrapped = parent.model;
    expect(wrapped).not.toBe(inner);
    expect(child.canonicalModel).toBe(wrapped);
    installRetryingModel(parent);
    expect(parent.model).toBe(wrapped);
  });
});
