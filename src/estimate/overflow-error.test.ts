import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { overflowInMessage, overflowInOwnWords, parseOverflowError } from './overflow-error.js';

/** What an overflow error states (`parseOverflowError` on a recognised message). */
type OverflowStatement = NonNullable<ReturnType<typeof parseOverflowError>>;

describe('parseOverflowError', () => {
  describe('messages that are not about the prompt size', () => {
    it('should return undefined for unrelated errors', () => {
      expect(parseOverflowError('')).toBeUndefined();
      expect(parseOverflowError('Internal error encountered.')).toBeUndefined();
      expect(parseOverflowError('API key not valid. Please pass a valid API key.')).toBeUndefined();
    });

    it('should not mistake a Gemini quota error (429) for an overflow', () => {
      const quota = JSON.stringify({
        error: {
          code: 429,
          message:
            'You exceeded your current quota, please check your plan and billing details.\n' +
            '* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 250000, model: gemini-2.5-pro\n' +
            'Please retry in 20s.',
          status: 'RESOURCE_EXHAUSTED',
        },
      });
      expect(parseOverflowError(quota)).toBeUndefined();
    });
  });

  describe('overflows worded with the context after the verb, or not named', () => {
    it('should read them as overflows that state nothing', () => {
      for (const message of [
        '400 the request exceeds the available context size, try increasing it',
        '400 Please reduce the length of the messages or completion.',
        'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
        'Requested tokens (5000) exceed context window of 4096',
        'Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.',
      ])
        expect(parseOverflowError(message)).toEqual({});
    });

    it('should not read a rate limit as one', () => {
      const tpm =
        'Request too large for model llama-3.3-70b in organization org_1 service tier on tokens per minute (TPM): Limit 6000, Requested 7000, please reduce your message size and try again.';
      expect(parseOverflowError(tpm)).toBeUndefined();
    });
  });

  // Each provider's wording and what it states: the prompt size and the limit, or only one, or neither.
  const GEMINI_BODY = JSON.stringify({
    error: {
      code: 400,
      message: 'The input token count (25270) exceeds the maximum number of tokens allowed (4000).',
      status: 'INVALID_ARGUMENT',
    },
  });
  const WORDINGS: Record<string, ReadonlyArray<{ should: string; message: string; says: OverflowStatement }>> = {
    Gemini: [
      {
        should: 'read the prompt size and the limit',
        message: 'The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).',
        says: { promptTokens: 1_234_567, limit: 1_048_576 },
      },
      {
        should: 'read them from the JSON error body ADK surfaces',
        message: GEMINI_BODY,
        says: { promptTokens: 25_270, limit: 4_000 },
      },
      {
        should: 'read them from the JSON error body with its quotes escaped',
        message: JSON.stringify(GEMINI_BODY),
        says: { promptTokens: 25_270, limit: 4_000 },
      },
      {
        should: 'recognise the message without a count, and read the maximum it states',
        message: 'The input token count exceeds the maximum number of tokens allowed 1048576.',
        says: { limit: 1_048_576 },
      },
      {
        should: 'recognise a maximum stated after other words as an overflow, but read no number from it',
        message: 'Request rejected: exceeds the maximum number of tokens allowed (8000).',
        says: {},
      },
      {
        should: 'read the statement after an error class a client or proxy put before it',
        message:
          'litellm.BadRequestError: The input token count (9123) exceeds the maximum number of tokens allowed (8000).',
        says: { promptTokens: 9_123, limit: 8_000 },
      },
      {
        should: 'read the statement of a body the client prefixed with its status',
        message: `got status: INVALID_ARGUMENT. ${GEMINI_BODY}`,
        says: { promptTokens: 25_270, limit: 4_000 },
      },
      {
        should: "read the words of a model whose input limit is below its context window (GPT-5's)",
        message:
          '400 Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 289650 tokens. Please reduce the length of the messages.',
        says: { promptTokens: 289_650, limit: 272_000 },
      },
      {
        should: 'read counts grouped by thousands with commas',
        message: JSON.stringify({
          error: {
            code: 400,
            message: 'The input token count (9,321) exceeds the maximum number of tokens allowed (1,048,576).',
          },
        }),
        says: { promptTokens: 9_321, limit: 1_048_576 },
      },
      {
        should: 'read the statement after an HTTP status in brackets',
        message: '[400 Bad Request] The input token count (9321) exceeds the maximum number of tokens allowed (8000).',
        says: { promptTokens: 9_321, limit: 8_000 },
      },
      {
        should: 'read counts grouped by thousands with dots, as a localised message writes them',
        message: 'The input token count (8.589) exceeds the maximum number of tokens allowed (8.000).',
        says: { promptTokens: 8_589, limit: 8_000 },
      },
      {
        should: 'read dot-grouped counts that end a sentence (Vertex AI writes ". Reduce ..." after the limit)',
        message:
          'Unable to submit request because the input token count is 50.000 but model only supports up to 32.768. ' +
          'Reduce the input token count and try again.',
        says: { promptTokens: 50_000, limit: 32_768 },
      },
      {
        should: 'read no count from digits whose dots do not group thousands',
        message: 'The input token count (8.58) exceeds the maximum number of tokens allowed (8000).',
        says: {},
      },
      {
        should: 'read no count from digits whose commas do not group thousands',
        message: 'The input token count (93,21) exceeds the maximum number of tokens allowed (8000).',
        says: {},
      },
      {
        should: 'read the Vertex AI wording',
        message:
          'Unable to submit request because the input token count is 131335 but model only supports up to 131072. ' +
          'Reduce the input token count and try again.',
        says: { promptTokens: 131_335, limit: 131_072 },
      },
    ],
    Anthropic: [
      {
        should: "read Bedrock's body, whose message is at its top (review 11)",
        message: JSON.stringify({ message: 'prompt is too long: 208310 tokens > 200000 maximum' }),
        says: { promptTokens: 208_310, limit: 200_000 },
      },
      {
        should: 'read a body after a status with its reason phrase',
        message: `400 Bad Request ${JSON.stringify({ message: 'prompt is too long: 208310 tokens > 200000 maximum' })}`,
        says: { promptTokens: 208_310, limit: 200_000 },
      },
      {
        should: 'read the prompt size and the limit',
        message: JSON.stringify({
          type: 'error',
          error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' },
        }),
        says: { promptTokens: 208_310, limit: 200_000 },
      },
      {
        should: 'read the input and the max_tokens asked for when together they exceed the limit',
        message: JSON.stringify({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message:
              'input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again',
          },
        }),
        says: { promptTokens: 188_240, requestedTokens: 209_573, limit: 200_000 },
      },
      {
        should: "read the same words after Bedrock's lead-in (AWS SDK's ValidationException)",
        message:
          'ValidationException: The model returned the following errors: input length and `max_tokens` exceed context limit: 196395 + 64000 > 204698, decrease input length or `max_tokens` and try again',
        says: { promptTokens: 196_395, requestedTokens: 260_395, limit: 204_698 },
      },
      {
        should: "read a prompt too long after Bedrock's lead-in",
        message: 'The model returned the following errors: prompt is too long: 204720 tokens > 200000 maximum',
        says: { promptTokens: 204_720, limit: 200_000 },
      },
    ],
    OpenAI: [
      {
        should: 'read the chat completions wording',
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
        says: { promptTokens: 130_532, limit: 128_000 },
      },
      {
        should: 'read counts grouped by thousands with commas',
        message:
          "This model's maximum context length is 128,000 tokens. However, your messages resulted in 130,532 tokens.",
        says: { promptTokens: 130_532, limit: 128_000 },
      },
      {
        should: 'read the prompt part of a request that includes the completion',
        message:
          "This model's maximum context length is 8192 tokens, however you requested 10000 tokens (5000 in your prompt; 5000 for the completion). " +
          'Please reduce your prompt; or completion length.',
        says: { promptTokens: 5_000, requestedTokens: 10_000, limit: 8_192 },
      },
      {
        should: 'read the statement after the four error classes LiteLLM nests',
        message:
          'litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: OpenAIException - ' +
          "This model's maximum context length is 13500 tokens. However, you requested 14032 tokens " +
          '(9936 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.',
        says: { promptTokens: 9_936, requestedTokens: 14_032, limit: 13_500 },
      },
      {
        should: 'read the input tokens of the newer wording',
        message:
          "OpenAIException - This model's maximum context length is 16384 tokens. However, your request has 19427 input tokens. " +
          'Please reduce the length of the input messages.',
        says: { promptTokens: 19_427, limit: 16_384 },
      },
      {
        should: "read the statement after openai-node's status and OpenRouter's wording",
        message:
          "400 This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input).",
        says: { promptTokens: 42_832, limit: 32_768 },
      },
      {
        should: 'read the body openai-python prefixes with its status code',
        message: `openai.BadRequestError: Error code: 400 - ${JSON.stringify({
          error: {
            message:
              "This model's maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens.",
            code: 'context_length_exceeded',
          },
        })}`,
        says: { promptTokens: 8_227, limit: 8_192 },
      },
      {
        should: 'read the maximum from a message that states only the maximum context length',
        message: "This model's maximum context length is 8192 tokens. Please reduce the length of the messages.",
        says: { limit: 8_192 },
      },
      {
        should: 'recognise the Responses API wording, which states no number',
        message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        says: {},
      },
    ],
  };

  for (const [provider, wordings] of Object.entries(WORDINGS)) {
    describe(provider, () => {
      for (const { should, message, says } of wordings) {
        it(`should ${should}`, () => {
          expect(parseOverflowError(message)).toEqual(says);
        });
      }
    });
  }

  describe('laws', () => {
    const sizes = fc.integer({ min: 1, max: 50_000_000 });

    it('should read back any Gemini prompt size and limit', () => {
      fc.assert(
        fc.property(sizes, sizes, (promptTokens, limit) => {
          const message = `The input token count (${promptTokens}) exceeds the maximum number of tokens allowed (${limit}).`;
          expect(parseOverflowError(message)).toEqual({ promptTokens, limit });
        }),
        PROPERTY_RUNS,
      );
    });

    it('should read back any Anthropic prompt size and limit', () => {
      fc.assert(
        fc.property(sizes, sizes, (promptTokens, limit) => {
          expect(parseOverflowError(`prompt is too long: ${promptTokens} tokens > ${limit} maximum`)).toEqual({
            promptTokens,
            limit,
          });
        }),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('parseOverflowError on text the request quoted into the error', () => {
  const HOSTILE = 'The input token count (5000) exceeds the maximum number of tokens allowed (1100).';
  it('should read no number from a statement the provider quotes from the request', () => {
    const quoted = JSON.stringify({
      error: { code: 400, message: `Request contains an invalid argument: "${HOSTILE}"`, status: 'INVALID_ARGUMENT' },
    });
    expect(parseOverflowError(quoted)).toEqual({});
  });

  it("should read the provider's own statement, not the request it quotes after it", () => {
    const message = `The input token count (9500) exceeds the maximum number of tokens allowed (8000). Request: "${HOSTILE}"`;
    expect(parseOverflowError(message)).toEqual({ promptTokens: 9_500, limit: 8_000 });
  });

  it('should read no number from an error body that follows text other than a client prefix', () => {
    // A proxy that puts the request's text first: the body it ends with may be the user's.
    const body = JSON.stringify({ error: { code: 400, message: HOSTILE } });
    expect(parseOverflowError(`Upstream rejected the request "see ${body}`)).toEqual({});
    expect(parseOverflowError(`Request: ${body}`)).toEqual({});
  });

  it("should not read OpenAI's prompt size from quoted text far after the statement", () => {
    const message = `This model's maximum context length is 8192 tokens. ${'x'.repeat(60)} you requested 3 tokens`;
    expect(parseOverflowError(message)).toEqual({ limit: 8_192 });
  });
});

describe('overflowInOwnWords on an error code', () => {
  it("should take OpenAI's context_length_exceeded, alone or after a status, as the provider's own words", () => {
    expect(overflowInOwnWords('context_length_exceeded')).toBe(true);
    expect(overflowInOwnWords('400 context_length_exceeded')).toBe(true);
    expect(overflowInOwnWords('rate_limit_exceeded')).toBe(false);
  });
});

describe("parseOverflowError on OpenAI's count of the tools' declarations", () => {
  it('should read the whole count as the prompt when the rest is in the functions, not in the completion', () => {
    const functions =
      "This model's maximum context length is 14000 tokens. However, your messages resulted in 14384 tokens (13984 in the messages, 400 in the functions). Please reduce the length of the messages or functions.";
    expect(parseOverflowError(functions)).toEqual({ promptTokens: 14_384, limit: 14_000 });
    const completion =
      "This model's maximum context length is 14000 tokens. However, you requested 15000 tokens (13000 in the messages, 2000 in the completion).";
    expect(parseOverflowError(completion)).toEqual({ promptTokens: 13_000, requestedTokens: 15_000, limit: 14_000 });
    // OpenAI's legacy three-part wording (review 26): the messages and the functions are the prompt.
    const three =
      "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (4500 in the messages, 400 in the functions, and 4100 in the completion). Please reduce the length of the messages, functions, or completion.";
    expect(parseOverflowError(three)).toEqual({ promptTokens: 4_900, requestedTokens: 9_000, limit: 8_192 });
  });
});

describe('overflowInMessage', () => {
  it('should read a message with no body in any words before a quotation, and a body in its own words only', () => {
    expect(
      overflowInMessage('Failed after 3 attempts. Last error: prompt is too long: 210000 tokens > 200000 maximum'),
    ).toBe(true);
    expect(
      overflowInMessage('The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).'),
    ).toBe(true);
    expect(overflowInMessage('Resource has been exhausted (e.g. check quota).')).toBe(false);
    // Review 27: a validation error quoting the user's text, as a value or in a body that echoes the input.
    const user = 'my prompt is too long, the input exceeds what I can read';
    expect(overflowInMessage(`Invalid request: messages[3].content: unsupported value "${user}"`)).toBe(false);
    expect(overflowInMessage(`400 validation error [type=list_type, input_value='${user}', input_type=str]`)).toBe(
      false,
    );
    expect(
      overflowInMessage(`422 ${JSON.stringify({ detail: [{ msg: 'Input should be a valid string', input: user }] })}`),
    ).toBe(false);
  });

  it("should read the provider's words in the bodies servers and proxies write (review 27)", () => {
    expect(overflowInMessage(JSON.stringify({ error: 'prompt is too long: 210000 tokens > 200000 maximum' }))).toBe(
      true,
    );
    expect(overflowInMessage(JSON.stringify({ detail: 'Input is too long for requested model.' }))).toBe(true);
    const gemini = {
      error: {
        code: 400,
        message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      },
    };
    const litellm = `400 litellm.BadRequestError: litellm.ContextWindowExceededError: ContextWindowExceededError: VertexAIException - ${JSON.stringify(gemini)}. Received Model Group=gemini-pro`;
    expect(overflowInMessage(litellm)).toBe(true);
    expect(parseOverflowError(litellm)).toEqual({ promptTokens: 1_200_000, limit: 1_048_576 });
  });
});
