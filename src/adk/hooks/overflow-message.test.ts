import { describe, expect, it } from 'vitest';
import { overflowInOwnWords, parseOverflowError } from '../../estimate/overflow-error.js';
import type { LlmRequest } from '@google/adk';
import { mediaBytesRefused, overflowMessageOf } from './overflow-message.js';

const ANTHROPIC = 'prompt is too long: 203412 tokens > 200000 maximum';
const body = { type: 'error', error: { type: 'invalid_request_error', message: ANTHROPIC } };

/** An axios-style error: a generic message, the provider's body on `response.data`, the request on `config`. */
function axiosError(data: unknown): Error {
  const error = new Error('Request failed with status code 400');
  const request: Record<string, unknown> = {};
  request['self'] = request;
  return Object.assign(error, {
    config: { data: '{"prompt":"the context is too long, summarize"}' },
    request,
    response: { status: 400, data },
  });
}

describe('overflowMessageOf', () => {
  it("should read the provider's words from the body an HTTP client keeps beside a generic message", () => {
    expect(overflowMessageOf(axiosError(body))).toBe(ANTHROPIC);
    expect(overflowMessageOf(axiosError(JSON.stringify(body)))).toBe(JSON.stringify(body));
    expect(overflowMessageOf(Object.assign(new Error('Bad Request'), { body: JSON.stringify(body) }))).toBeDefined();
  });

  it('should read a thrown body, an error code and a cause', () => {
    expect(overflowMessageOf(body)).toBe(ANTHROPIC);
    expect(
      overflowMessageOf(Object.assign(new Error('400 status code (no body)'), { code: 'context_length_exceeded' })),
    ).toBe('context_length_exceeded');
    expect(overflowMessageOf(new Error('call failed', { cause: new Error(ANTHROPIC) }))).toBe(ANTHROPIC);
    expect(overflowMessageOf({ errorCode: '400', errorMessage: ANTHROPIC })).toBe(ANTHROPIC);
  });

  it("should read HTTP's own 413 as an overflow that states nothing, wherever a client puts it", () => {
    const said = 'HTTP 413 Payload Too Large: the input exceeds what the server accepts.';
    expect(overflowMessageOf(Object.assign(new Error('Request failed with status code 413'), { status: 413 }))).toBe(
      said,
    );
    expect(
      overflowMessageOf(axiosError('<html><head><title>413 Request Entity Too Large</title></head></html>')),
    ).toBeUndefined();
    const nginx = Object.assign(new Error('upstream said no'), {
      response: { status: 413, data: '<html><head><title>413 Request Entity Too Large</title></head></html>' },
    });
    expect(overflowMessageOf(nginx)).toBe(said);
    expect(overflowMessageOf(new Error('413 Payload Too Large'))).toBe(said);
    expect(overflowMessageOf({ statusCode: '413' })).toBe(said);
    expect(overflowMessageOf('Request failed with status code 413')).toBe(said);
    // What it says is read as an overflow by the parser and the session's bound alike.
    expect(overflowInOwnWords(said)).toBe(true);
    expect(parseOverflowError(said)).toEqual({});
  });

  it('should tell a 413 of mostly media bytes, whose measure in tokens says nothing of a window', () => {
    const said = overflowMessageOf(Object.assign(new Error('x'), { status: 413 })) ?? '';
    const photo = { inlineData: { mimeType: 'image/png', data: 'A'.repeat(100_000) } };
    const request = (parts: object[]) => ({ contents: [{ role: 'user', parts }] }) as unknown as LlmRequest;
    expect(mediaBytesRefused(said, request([{ text: 'What is this?' }, photo]))).toBe(true);
    const screenshot = { functionResponse: { name: 'screenshot', response: { ok: true }, parts: [photo] } };
    expect(mediaBytesRefused(said, request([screenshot]))).toBe(true);
    expect(mediaBytesRefused(said, request([{ text: 'x'.repeat(300_000) }, photo]))).toBe(false);
    expect(mediaBytesRefused(said, request([{ text: 'x'.repeat(300_000) }]))).toBe(false);
    expect(mediaBytesRefused('prompt is too long: 9 tokens > 8 maximum', request([photo]))).toBe(false);
    expect(mediaBytesRefused(said, undefined)).toBe(false);
  });

  it('should not read another status, or 413 in a text that is not a status', () => {
    expect(
      overflowMessageOf(Object.assign(new Error('Request failed with status code 429'), { status: 429 })),
    ).toBeUndefined();
    expect(overflowMessageOf(new Error('order 413 shipped'))).toBeUndefined();
    expect(overflowMessageOf({ response: { status: 500, data: 'the 413 page' } })).toBeUndefined();
  });

  it('should not read the request a client keeps, nor an error that states no overflow', () => {
    expect(overflowMessageOf(axiosError({ error: { message: 'rate limited' } }))).toBeUndefined();
    expect(overflowMessageOf(new Error('socket hang up'))).toBeUndefined();
    expect(overflowMessageOf(undefined)).toBeUndefined();
    expect(overflowMessageOf('prompt is too long')).toBe('prompt is too long');
  });

  it('should not read an overflow into a body that quotes the request or the conversation (review 26)', () => {
    const quoted = 'the input exceeds what I expected, please shorten the context';
    // axios's toJSON(): the request's body on config.data, thrown as a plain object with a 503.
    expect(
      overflowMessageOf({ message: 'Request failed with status code 503', config: { data: quoted }, status: 503 }),
    ).toBeUndefined();
    // A 422 that echoes its input, on response.data.
    const echo = { detail: [{ loc: ['body', 'messages'], msg: 'invalid', input: quoted }] };
    expect(
      overflowMessageOf(Object.assign(new Error('422'), { response: { status: 422, data: echo } })),
    ).toBeUndefined();
    // A 503 whose cause's data quotes the conversation.
    expect(overflowMessageOf(new Error('503', { cause: { data: { note: quoted } } }))).toBeUndefined();
  });

  it('should leave a getter that throws, a revoked proxy and binary bodies alone', () => {
    const lazy = Object.defineProperty(new Error('503 Service Unavailable'), 'code', {
      get() {
        throw new Error('lazy code getter failed');
      },
    });
    expect(overflowMessageOf(lazy)).toBeUndefined();
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(overflowMessageOf(proxy)).toBeUndefined();
    expect(
      overflowMessageOf(Object.assign(new Error('400'), { response: { data: Buffer.alloc(1_000_000) } })),
    ).toBeUndefined();
  });

  it('should survive a cycle and a getter that throws', () => {
    const cyclic: Record<string, unknown> = { message: 'failed' };
    cyclic['cause'] = cyclic;
    expect(overflowMessageOf(cyclic)).toBeUndefined();
    const hostile = Object.defineProperty(new Error('failed'), 'response', {
      get() {
        throw new Error('no');
      },
    });
    expect(overflowMessageOf(hostile)).toBeUndefined();
  });
});

describe('overflowMessageOf on the errors SDKs throw (review 27)', () => {
  const oai = {
    message:
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
    code: 'context_length_exceeded',
  };
  const ant = {
    type: 'error',
    error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
  };
  const gemini = {
    error: {
      code: 400,
      message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
    },
  };
  const user = 'my prompt is too long, the input exceeds what I can read';
  /** openai-node's APIError: `${status} ${error.message}`, the body on `error`. */
  const openaiError = (status: number, body: { message?: string; code?: string } | object) =>
    Object.assign(new Error(`${status} ${'message' in body ? body.message : JSON.stringify(body)}`), {
      status,
      error: body,
    });
  const litellm = `litellm.BadRequestError: litellm.ContextWindowExceededError: ContextWindowExceededError: VertexAIException - ${JSON.stringify(gemini)}. Received Model Group=gemini-pro`;

  it.each([
    ['openai-node', openaiError(400, oai)],
    [
      '@anthropic-ai/sdk (the body as JSON after the status)',
      Object.assign(new Error(`400 ${JSON.stringify(ant)}`), { error: ant }),
    ],
    ['@google/genai, streamed', new Error(`got status: INVALID_ARGUMENT. ${JSON.stringify(gemini)}`)],
    [
      'AWS Bedrock',
      Object.assign(new Error('Input is too long for requested model.'), { name: 'ValidationException' }),
    ],
    ["the AI SDK's RetryError", new Error(`Failed after 3 attempts. Last error: ${ant.error.message}`)],
    [
      "the AI SDK's APICallError, the body only on responseBody",
      Object.assign(new Error('Bad Request'), { responseBody: JSON.stringify(ant) }),
    ],
    [
      'LiteLLM behind openai-node, wrapped as a cause',
      new Error('model call failed', { cause: openaiError(400, { message: litellm }) }),
    ],
    [
      "a fetch adapter's body text, a string error",
      new Error('HTTP 400', { cause: JSON.stringify({ error: ant.error.message }) }),
    ],
    [
      "a FastAPI proxy's detail",
      Object.assign(new Error('400'), { response: { data: { detail: 'Input is too long for requested model.' } } }),
    ],
  ])('should read an overflow from %s', (_, error) => {
    expect(overflowMessageOf(error)).toBeDefined();
  });

  it.each([
    ['a 422 echoing its input', openaiError(422, { detail: [{ msg: 'Input should be a valid string', input: user }] })],
    [
      'a validation error quoting a value',
      new Error(`Invalid request: messages[3].content: unsupported value "${user}"`),
    ],
    [
      'a LiteLLM validation repr',
      openaiError(400, { message: `litellm.BadRequestError: input_value='${user}', input_type=str` }),
    ],
    [
      'a Gemini 400 quoting content',
      new Error(JSON.stringify({ error: { code: 400, message: `Invalid value at 'contents[2]' ("${user}")` } })),
    ],
  ])('should not read an overflow into %s', (_, error) => {
    expect(overflowMessageOf(error)).toBeUndefined();
  });
});
