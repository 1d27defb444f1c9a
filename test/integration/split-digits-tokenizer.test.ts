/**
 * `splitDigitsTokenizer` on a digit-splitting provider (as Gemini's tokenizer counts, docs/design.md "Digits, one
 * token each"): an 8k agent reads ~3 KB of prose a turn and, in turn 10, 3,500 characters of numbers, with the
 * request under the threshold by the default estimate. Its own callback redacts the contents in place, which rules out
 * the retry of a rejection (the forty-eighth outside trial's repro, finding 3).
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, splitDigitsTokenizer, type Tokenizer } from '../../src/index.js';
import { proseText, ScriptedLlm, ScriptedSummarizer, SeededRandom } from '../../src/testing/index.js';
import { digitSplittingCount } from '../support/digit-splitting-count.js';
import { recordScript, recordTool, redactInPlace } from '../support/record-keeper.js';

const random = new SeededRandom(3);
let numbers = '';
while (numbers.length < 3_500) numbers += `${random.next()}${random.next()},`;

const fetchRecord = recordTool((turn) => (turn === 10 ? numbers.slice(0, 3_500) : proseText(3_000, turn + 1_000)));
const script = recordScript();

async function run(tokenizer?: Tokenizer) {
  const model = new ScriptedLlm({ window: 8_000, countTokens: digitSplittingCount, script });
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
