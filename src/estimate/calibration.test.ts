import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrationState, PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import {
  calibrate,
  clampCorrection,
  contentShare,
  correctionFactor,
  DEFAULT_CORRECTION,
  learnedFactor,
  MIN_CONTENT_SHARE,
  MIN_TRUSTED_RATIO,
  parseOverflowError,
} from './calibration.js';

/** What an overflow error states (`parseOverflowError` on a recognised message). */
type OverflowStatement = NonNullable<ReturnType<typeof parseOverflowError>>;

const estimate = fc.integer({ min: 0, max: 2_000_000 });

describe('clampCorrection', () => {
  describe('values that are not ratios', () => {
    it('should treat NaN and infinities as the maximum (never undercount)', () => {
      expect(clampCorrection(Number.NaN)).toBe(5);
      expect(clampCorrection(Number.POSITIVE_INFINITY)).toBe(5);
    });
  });

  describe('ratios', () => {
    it('should clamp to [1, 5]', () => {
      expect(clampCorrection(0.3)).toBe(1);
      expect(clampCorrection(2.5)).toBe(2.5);
      expect(clampCorrection(7)).toBe(5);
    });
  });
});

describe('correctionFactor', () => {
  describe('unusable state', () => {
    it('should ignore zero, negative and non-finite counts', () => {
      for (const bad of [0, -100, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(correctionFactor({ realPromptTokens: bad, lastEstimate: 1_000 })).toEqual({
          factor: 1.5,
          calibrated: false,
        });
        expect(correctionFactor({ realPromptTokens: 1_000, lastEstimate: bad })).toEqual({
          factor: 1.5,
          calibrated: false,
        });
        expect(correctionFactor({ learnedCorrection: bad })).toEqual({ factor: 1.5, calibrated: false });
      }
    });

    it('should clamp a configured default into [1, 5]', () => {
      expect(correctionFactor({}, 0.5)).toEqual({ factor: 1, calibrated: false });
      expect(correctionFactor({}, 9)).toEqual({ factor: 5, calibrated: false });
    });
  });

  describe('before any real count', () => {
    it('should use 1.5 by default, uncalibrated', () => {
      expect(DEFAULT_CORRECTION).toBe(1.5);
      expect(correctionFactor({})).toEqual({ factor: 1.5, calibrated: false });
    });

    it('should use the configured default', () => {
      expect(correctionFactor({}, 2)).toEqual({ factor: 2, calibrated: false });
    });
  });

  describe('after a real count', () => {
    it('should use real / estimate of the same request', () => {
      // 3,000 / 2,000 = 1.5
      expect(correctionFactor({ realPromptTokens: 3_000, lastEstimate: 2_000 })).toEqual({
        factor: 1.5,
        calibrated: true,
      });
    });

    it('should clamp the ratio to [1, 5]', () => {
      // 1,000 / 2,000 = 0.5 → 1; 12,000 / 2,000 = 6 → 5
      expect(correctionFactor({ realPromptTokens: 1_000, lastEstimate: 2_000 }).factor).toBe(1);
      expect(correctionFactor({ realPromptTokens: 12_000, lastEstimate: 2_000 }).factor).toBe(5);
    });

    it('should apply the ratio of content tokens to a request whose framing share is smaller', () => {
      // A provider that counts texts only, at 1.3: 130 estimated tokens of which 18 are framing, 146 real.
      // 146 / 130 = 1.12 would estimate the next request, 5,000 tokens of which 50 are framing, 13% low;
      // 146 / (130 - 18) x (5,000 - 50) / 5,000 = 1.29.
      const pair = { realPromptTokens: 146, lastEstimate: 130, lastFraming: 18 };
      expect(correctionFactor(pair, 1.5, { estimate: 5_000, framing: 50 }).factor).toBeCloseTo(1.29, 2);
      // 5,000 x 1.2905 = 6,452.7, above the delta term 146 + (5,000 - 130) x 1.2905 = 6,430.9.
      expect(calibrate(5_000, pair, 1.5, 50)).toBe(6_453);
      // The same framing share, or an unknown one: the plain ratio.
      expect(correctionFactor(pair, 1.5, { estimate: 1_300, framing: 180 }).factor).toBeCloseTo(146 / 130, 9);
      expect(correctionFactor(pair).factor).toBeCloseTo(146 / 130, 9);
    });

    it('should prefer the current pair over the learned correction', () => {
      // 4,000 / 2,000 = 2, not the learned 3
      expect(correctionFactor({ realPromptTokens: 4_000, lastEstimate: 2_000, learnedCorrection: 3 }).factor).toBe(2);
    });

    it('should fall back to the learned correction when the pair was cleared by a compaction', () => {
      expect(correctionFactor({ learnedCorrection: 2.2 })).toEqual({ factor: 2.2, calibrated: true });
    });
  });
});

describe('calibrate', () => {
  describe('before any real count', () => {
    it('should scale by the default correction and round up', () => {
      // 1,000 × 1.5 = 1,500; 1,001 × 1.5 = 1,501.5 → 1,502
      expect(calibrate(1_000, {})).toBe(1_500);
      expect(calibrate(1_001, {})).toBe(1_502);
    });

    it('should scale by a learned correction', () => {
      // 1,000 × 2 = 2,000
      expect(calibrate(1_000, { learnedCorrection: 2 })).toBe(2_000);
    });
  });

  describe('with a real count', () => {
    it('should agree with real + growth × correction when the ratio is inside the clamp', () => {
      // factor 3,000 / 2,000 = 1.5; scaled 2,400 × 1.5 = 3,600; from real 3,000 + 400 × 1.5 = 3,600
      expect(calibrate(2_400, { realPromptTokens: 3_000, lastEstimate: 2_000 })).toBe(3_600);
    });

    it('should count from the real size when the clamp at 5 binds (delta accounting)', () => {
      // factor min(12,000 / 2,000, 5) = 5; scaled 2,200 × 5 = 11,000; from real 12,000 + 200 × 5 = 13,000
      expect(calibrate(2_200, { realPromptTokens: 12_000, lastEstimate: 2_000 })).toBe(13_000);
    });

    it('should count from the real count, not the estimate, when the provider counts fewer tokens', () => {
      // ratio 1,000 / 2,000 = 0.5, factor 1: the provider's count of what it saw, plus 500 appended × 1 (not 2,500)
      expect(calibrate(2_500, { realPromptTokens: 1_000, lastEstimate: 2_000 })).toBe(1_500);
      // The same request again: what the provider counted (not the estimate of 2,000)
      expect(calibrate(2_000, { realPromptTokens: 1_000, lastEstimate: 2_000 })).toBe(1_000);
    });

    it('should credit a shrink at the ratio when the provider counts fewer tokens', () => {
      // ratio 1,600 / 2,000 = 0.8: 500 estimated tokens removed are credited 400 (not 500, not the estimate 1,500)
      expect(calibrate(1_500, { realPromptTokens: 1_600, lastEstimate: 2_000 })).toBe(1_200);
    });

    it("should not trust a count far below the estimate (a provider leaving cached tokens out, another call's pair)", () => {
      // ratio 100 / 80,000: no tokenizer difference explains it; the request is counted as before, from the estimate.
      expect(calibrate(80_500, { realPromptTokens: 100, lastEstimate: 80_000 })).toBe(80_500);
      const atTheLimit = { realPromptTokens: 80_000 * MIN_TRUSTED_RATIO, lastEstimate: 80_000 };
      expect(calibrate(80_500, atTheLimit)).toBe(80_000 * MIN_TRUSTED_RATIO + 500);
    });

    it('should charge appended content at the factor of this request, at least 1, below a ratio of 1', () => {
      // ratio 950 / 1,000 = 0.95 over a last request 20% framing; this one 1% framing: factor 0.95 / 0.8 × 0.99
      const pair = { realPromptTokens: 950, lastEstimate: 1_000, lastFraming: 200 };
      const factor = (0.95 / 0.8) * 0.99;
      expect(correctionFactor(pair, 1.5, { estimate: 5_000, framing: 50 }).factor).toBeCloseTo(factor, 12);
      // 950 + 4,000 × 1.1756 = 5,652.5 (not 5,000 × 1.1756 = 5,878.1)
      expect(calibrate(5_000, pair, 1.5, 50)).toBe(Math.ceil(950 + 4_000 * factor));
    });

    it('should keep the rule of a ratio of at least 1 when the provider counts exactly the estimate', () => {
      // ratio 1: 2,500 × 1 = 2,500 either way; a shrink credited at 1: max(1,500, 2,000 − 500) = 1,500
      expect(calibrate(2_500, { realPromptTokens: 2_000, lastEstimate: 2_000 })).toBe(2_500);
      expect(calibrate(1_500, { realPromptTokens: 2_000, lastEstimate: 2_000 })).toBe(1_500);
    });

    it('should credit a shrink at factor 1 only', () => {
      // factor 1.5; scaled 1,500 × 1.5 = 2,250; from real 3,000 − 500 × 1 = 2,500
      expect(calibrate(1_500, { realPromptTokens: 3_000, lastEstimate: 2_000 })).toBe(2_500);
    });
  });

  describe('text the request quoted into the error', () => {
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

  describe('laws', () => {
    it('should never go below the heuristic estimate unless the provider counted the last request below it', () => {
      fc.assert(
        fc.property(estimate, calibrationState, (value, state) => {
          const { realPromptTokens: real, lastEstimate: last } = state;
          fc.pre(real === undefined || last === undefined || real >= last);
          expect(calibrate(value, state)).toBeGreaterThanOrEqual(value);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never go below the ratio of the last real count applied to the estimate', () => {
      fc.assert(
        fc.property(estimate, calibrationState, (value, state) => {
          const { realPromptTokens: real, lastEstimate: last } = state;
          const ratio = real !== undefined && last !== undefined ? Math.min(1, real / last) : 1;
          expect(calibrate(value, state)).toBeGreaterThanOrEqual(Math.floor(value * ratio));
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never go below the real count while the request has not shrunk', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.nat(1_000_000),
          fc.integer({ min: 1, max: 5_000_000 }),
          (lastEstimate, growth, real) => {
            expect(calibrate(lastEstimate + growth, { realPromptTokens: real, lastEstimate })).toBeGreaterThanOrEqual(
              real,
            );
          },
        ),
        PROPERTY_RUNS,
      );
    });

    it('should never decrease when the estimate grows', () => {
      fc.assert(
        fc.property(estimate, fc.nat(100_000), calibrationState, (value, growth, state) => {
          expect(calibrate(value + growth, state)).toBeGreaterThanOrEqual(calibrate(value, state));
        }),
        PROPERTY_RUNS,
      );
    });

    it('should stay within the largest correction of the estimate when no real count pins it', () => {
      fc.assert(
        fc.property(
          estimate,
          fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: undefined }),
          (value, learnedCorrection) => {
            expect(calibrate(value, { learnedCorrection })).toBeLessThanOrEqual(Math.ceil(value * 5));
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});

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
        should: 'read the prompt size and the limit',
        message: JSON.stringify({
          type: 'error',
          error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' },
        }),
        says: { promptTokens: 208_310, limit: 200_000 },
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

describe('learnedFactor', () => {
  it('should never be lower than real / estimate, nor more than that over MIN_CONTENT_SHARE', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.option(fc.double({ min: MIN_CONTENT_SHARE, max: 1, noNaN: true }), { nil: undefined }),
        (real, estimate, framing, share) => {
          const factor = learnedFactor(real, estimate, framing, share);
          expect(factor).toBeGreaterThanOrEqual(clampCorrection(real / estimate));
          expect(factor).toBeLessThanOrEqual(clampCorrection(real / estimate / MIN_CONTENT_SHARE) * (1 + 1e-12));
        },
      ),
      PROPERTY_RUNS,
    );
  });

  it('should be the plain ratio when the request it is for has the same framing share', () => {
    expect(learnedFactor(3_000, 2_000, 200, contentShare(2_000, 200))).toBeCloseTo(1.5, 12);
    expect(learnedFactor(3_000, 2_000, 200, contentShare(20_000, 2_000))).toBeCloseTo(1.5, 12);
  });

  it('should ignore a framing that is not a positive number', () => {
    for (const framing of [undefined, 0, -50, Number.NaN, Number.POSITIVE_INFINITY])
      expect(learnedFactor(3_000, 2_000, framing, 1)).toBe(1.5);
  });
});
