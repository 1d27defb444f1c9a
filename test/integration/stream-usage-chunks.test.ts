/**
 * A `BaseLlm` of one's own that streams: where its usage comes decides what the guard can bill. The forty-fifth
 * outside trial: usage on the last partial chunk only (an adapter over an API that sends it in a closing chunk) billed
 * the tool calls but none of the streamed answers, half the tokens; usage never reported left every call out of
 * `promptTokens` and `costUsd` with nothing said. Now a call's partial chunks count toward its bill, and an agent whose
 * first calls report nothing is said once to be missing from the figures.
 */
import { BaseLlm, FunctionTool, InMemorySessionService, LlmAgent, Runner, StreamingMode } from '@google/adk';
import type { LlmRequest, LlmResponse } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, logText, ratioTokenCounter } from '../../src/testing/index.js';

/**
 * `odd-partial`: the final response reports the usage, and the first partial chunk an absurd prompt count.
 * `output-on-partials`: the partial chunks report the output tokens, the final response the prompt only.
 */
type UsageAt = 'final' | 'last-partial' | 'never' | 'odd-partial' | 'output-on-partials';
const count = ratioTokenCounter(1.5);

class ChunkyLlm extends BaseLlm {
  readonly counted: number[] = [];
  constructor(private readonly usageAt: UsageAt) {
    super({ model: 'chunky-1' });
  }
  override async *generateContentAsync(request: LlmRequest, stream = false): AsyncGenerator<LlmResponse, void> {
    const tokens = count(request);
    this.counted.push(tokens);
    const usageMetadata = { promptTokenCount: tokens, candidatesTokenCount: 40, totalTokenCount: tokens + 40 };
    const answered = request.contents.at(-1)?.parts?.some((part) => part.functionResponse) === true;
    const content: Content = answered
      ? { role: 'model', parts: [{ text: `Answer ${this.counted.length}: ${logText(300, this.counted.length)}` }] }
      : { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: {} } }] };
    const text = content.parts?.[0]?.text;
    if (stream && text)
      for (let i = 0; i < text.length; i += 120) {
        const last = i + 120 >= text.length;
        yield {
          content: { role: 'model', parts: [{ text: text.slice(i, i + 120) }] },
          partial: true,
          ...(last && this.usageAt === 'last-partial' ? { usageMetadata } : {}),
          ...(i === 0 && this.usageAt === 'odd-partial'
            ? { usageMetadata: { promptTokenCount: 99_999_999, candidatesTokenCount: 99_999_999 } }
            : {}),
          ...(this.usageAt === 'output-on-partials' ? { usageMetadata: { candidatesTokenCount: 40 } } : {}),
        };
      }
    const onFinal =
      this.usageAt === 'final' ||
      this.usageAt === 'odd-partial' ||
      (this.usageAt === 'output-on-partials' && !(stream && text)) ||
      (this.usageAt === 'last-partial' && !(stream && text));
    const promptOnly = this.usageAt === 'output-on-partials' && stream && text;
    yield {
      content,
      ...(onFinal ? { usageMetadata } : promptOnly ? { usageMetadata: { promptTokenCount: tokens } } : {}),
    };
  }
  override connect(): Promise<never> {
    return Promise.reject(new Error('no live connection'));
  }
}

async function run(usageAt: UsageAt) {
  const model = new ChunkyLlm(usageAt);
  const tool = new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns logs.',
    execute: () => ({ logs: logText(1_500, 1) }),
  });
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ contextWindow: 64_000, logger });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You read logs.', tools: [tool] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'chunky', agent, sessionService, plugins: [guard] });
  const { id } = await sessionService.createSession({ appName: 'chunky', userId: 'u' });
  for (let turn = 1; turn <= 4; turn++)
    for await (const _ of runner.runAsync({
      userId: 'u',
      sessionId: id,
      newMessage: { role: 'user', parts: [{ text: `Turn ${turn}: read the logs.` }] },
      runConfig: { streamingMode: StreamingMode.SSE },
    }));
  const stored = await sessionService.getSession({ appName: 'chunky', userId: 'u', sessionId: id });
  const status = guard.status(stored, 'worker');
  return {
    status,
    logger,
    counted: model.counted.reduce((sum, tokens) => sum + tokens, 0),
    calls: model.counted.length,
  };
}

describe("a streaming BaseLlm's usage", () => {
  it('should bill a call whose usage came on its last partial chunk only', async () => {
    const { status, counted, logger } = await run('last-partial');
    expect(status.promptTokens).toBe(counted);
    expect(logger.matching(/reported no usage/)).toEqual([]);
  });

  it('should bill each call once where the final response reports it', async () => {
    const { status, counted } = await run('final');
    expect(status.promptTokens).toBe(counted);
  });

  it("should bill what the final response reports, not an odd partial chunk's counts", async () => {
    const { status, counted, calls } = await run('odd-partial');
    expect(status.promptTokens).toBe(counted);
    expect(status.outputTokens).toBe(40 * calls);
  });

  it('should bill the output its partial chunks report when the final response counts the prompt only', async () => {
    const { status, counted, calls } = await run('output-on-partials');
    expect(status.promptTokens).toBe(counted);
    expect(status.outputTokens).toBe(40 * calls);
  });

  it('should say once that calls which report no usage are missing from the figures', async () => {
    const { status, logger } = await run('never');
    expect(status.promptTokens).toBe(0);
    expect(logger.matching(/reported no usage \(usageMetadata.promptTokenCount\) on its first 3 calls/)).toHaveLength(
      1,
    );
  });
});
