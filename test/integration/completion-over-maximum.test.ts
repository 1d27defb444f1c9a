/**
 * A genuine overflow worded as vLLM and OpenAI word it, through the real Runner: the prompt is under the maximum
 * and the prompt plus the completion asked for is over it. Review 8 found d0ff256 taking it for a rejection not
 * about the request (the prompt "not over"): 3 rejections in 30 turns where there was 1, and an identical resend.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { faultHarness } from '../support/fault-harness.js';

setLogLevel(LogLevel.ERROR);

/** vLLM's (and OpenAI's) words when the prompt fits but the prompt plus the completion asked for does not. */
function vllmOverflow(max: number, completion: number) {
  return ({ promptTokens }: { promptTokens: number }) =>
    promptTokens + completion > max
      ? new Error(
          `400 This model's maximum context length is ${max} tokens. However, you requested ${promptTokens + completion} tokens (${promptTokens} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`,
        )
      : undefined;
}

/** Anthropic's words when the input fits but the input plus `max_tokens` does not. */
function anthropicOverflow(max: number, completion: number) {
  return ({ promptTokens }: { promptTokens: number }) =>
    promptTokens + completion > max
      ? new Error(
          JSON.stringify({
            type: 'error',
            error: {
              type: 'invalid_request_error',
              message: `input length and \`max_tokens\` exceed context limit: ${promptTokens} + ${completion} > ${max}, decrease input length or \`max_tokens\` and try again`,
            },
          }),
        )
      : undefined;
}

describe('a genuine overflow of the prompt plus the completion (vLLM, OpenAI)', () => {
  it('should not keep rejecting call after call: the session learns a bound', async () => {
    // Before d0ff256 one rejection bounded the window by the request's measure; after it, three in 30 turns.
    expect(await rejectionsOver30Turns('scripted-vllm', vllmOverflow(16_384, 4_000))).toBe(1);
  });

  it("should not send an agent's first call again unchanged: the rejection is about it", async () => {
    const h = await faultHarness({
      model: 'scripted-vllm',
      window: 200_000,
      ratio: 1.0,
      toolChars: 0,
      guard: { contextWindow: 64_000 },
      fail: vllmOverflow(16_384, 4_000),
    });
    await h.turn(`Please read this: ${'lorem ipsum dolor sit amet '.repeat(2_400)}`);
    const [first, second] = h.model.requests;
    expect(first?.promptTokens).toBeGreaterThan(12_384);
    // Sent again only if made smaller: the same request would be rejected again for the same reason.
    if (second) expect(second.contents).not.toEqual(first?.contents);
  });
});

describe("a genuine overflow of the input plus max_tokens (Anthropic's words)", () => {
  it('should not keep rejecting call after call: the session learns a bound', async () => {
    // Before, read as an overflow stating nothing, its words behind a backquote: three in 30 turns.
    expect(await rejectionsOver30Turns('scripted-claude', anthropicOverflow(16_384, 4_000))).toBe(1);
  });
});

/** The same words as Bedrock's runtime client gives them (Roo-Code issue 3713): after its own lead-in. */
function bedrockOverflow(max: number, completion: number) {
  return ({ promptTokens }: { promptTokens: number }) =>
    promptTokens + completion > max
      ? Object.assign(
          new Error(
            `The model returned the following errors: input length and \`max_tokens\` exceed context limit: ${promptTokens} + ${completion} > ${max}, decrease input length or \`max_tokens\` and try again`,
          ),
          { name: 'ValidationException' },
        )
      : undefined;
}

describe("a genuine overflow of the input plus max_tokens (Anthropic's words through Bedrock)", () => {
  it('should not keep rejecting call after call: the session learns a bound', async () => {
    expect(await rejectionsOver30Turns('scripted-claude', bedrockOverflow(16_384, 4_000))).toBe(1);
  });
});

/** The rejections of 30 tool turns on a model that fails as `fail` says; no error may reach the user. */
async function rejectionsOver30Turns(
  model: string,
  fail: (request: { promptTokens: number }) => Error | undefined,
): Promise<number> {
  const h = await faultHarness({
    model,
    window: 200_000,
    ratio: 1.0,
    toolChars: 3_000,
    guard: { contextWindow: 64_000 },
    fail,
  });
  const errors: string[] = [];
  for (let turn = 0; turn < 30; turn++) {
    const outcome = await h.turn(`Turn ${turn}: fetch the document and tell me what changed.`);
    errors.push(...outcome.errorCodes, ...(outcome.thrown ? [outcome.thrown] : []));
  }
  expect(errors).toEqual([]);
  return (await h.usage()).rejectedCalls;
}
