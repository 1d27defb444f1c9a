/**
 * `splitDigitsTokenizer` on a digit-splitting provider (as Gemini's tokenizer counts, docs/design.md "Digits, one
 * token each"): an 8k agent reads ~3 KB of prose a turn and, in turn 10, 3,500 characters of numbers, with the
 * request under the threshold by the default estimate. Its own callback redacts the contents in place, which rules out
 * the retry of a rejection (the forty-eighth outside trial's repro, finding 3).
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner, type LlmRequest } from '@google/adk';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { ContextGuard, splitDigitsTokenizer, type Tokenizer } from '../../src/index.js';
import {
  proseText,
  requestPayload,
  ScriptedLlm,
  ScriptedSummarizer,
  SeededRandom,
  type ModelScript,
} from '../../src/testing/index.js';

const encoding = getEncoding('o200k_base');
/** o200k, but every digit a token. */
const digitsSplit = (request: Parameters<typeof requestPayload>[0]): number => {
  const { texts, mediaTokens } = requestPayload(request);
  let tokens = mediaTokens;
  for (const text of texts) {
    tokens += encoding.encode(text, [], []).length;
    for (const run of text.match(/\d+/g) ?? []) tokens += run.length - Math.ceil(run.length / 3);
  }
  return tokens;
};

const random = new SeededRandom(3);
let numbers = '';
while (numbers.length < 3_500) numbers += `${random.next()}${random.next()},`;

const fetchRecord = new FunctionTool({
  name: 'fetch_record',
  description: 'Fetches the record for a turn.',
  parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } } } as never,
  execute: (input: unknown) => {
    const turn = (input as { turn: number }).turn;
    return { record: turn === 10 ? numbers.slice(0, 3_500) : proseText(3_000, turn + 1_000) };
  },
});

const script: ModelScript = ({ request, index }) => {
  const last = request.contents.at(-1);
  if (last?.parts?.some((part) => part.functionResponse))
    return { content: { role: 'model', parts: [{ text: `Noted, step ${index}.` }] } };
  const turn = Number(/Turn (\d+)/.exec(JSON.stringify(last))?.[1] ?? 0);
  return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch_record', args: { turn } } }] } };
};

const redactInPlace = ({ request }: { request: LlmRequest }) => {
  for (const content of request.contents)
    for (const part of content.parts ?? []) if (part.text) part.text = part.text.replace(/step (\d+)/g, 'step #');
  return undefined;
};

async function run(tokenizer?: Tokenizer) {
  const model = new ScriptedLlm({ window: 8_000, countTokens: digitsSplit, script });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You keep records for the user.',
    tools: [fetchRecord],
    beforeModelCallback: redactInPlace,
  });
  const guard = new ContextGuard({
    contextWindow: 8_000,
    summarizer: new ScriptedSummarizer(),
    ...(tokenizer && { tokenizer }),
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'records', agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: 'records', userId: 'u' });
  const errors: string[] = [];
  for (let turn = 1; turn <= 11; turn++)
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: `Turn ${turn}: fetch my record please.` }] },
    }))
      if (event.errorCode) errors.push(`${event.errorCode}: ${event.errorMessage ?? ''}`);
  return { errors, rejected: model.rejectedRequests.length };
}

describe('a burst of numbers under the threshold, on a digit-splitting provider', () => {
  it('should be measured as that provider counts it with splitDigitsTokenizer: no rejection, no error', async () => {
    expect(await run(splitDigitsTokenizer)).toEqual({ errors: [], rejected: 0 });
  });

  it('should be refused with the default tokenizer, and reach the user behind an in-place edit (the documented limit)', async () => {
    const { errors, rejected } = await run();
    expect(rejected).toBeGreaterThan(0);
    expect(errors.some((error) => error.includes('exceeds the maximum number of tokens'))).toBe(true);
  });
});
