/**
 * A masking for room waits past the threshold only where a rejection is sure to be retried in the call: nothing after
 * the guard could edit the request (trial 48). An 8k agent reads ~3 KB of prose a turn and has its own before-model
 * callback, or a plugin after the guard; in turn 12 numbers arrive, which a provider that splits digits (as Gemma's
 * tokenizer does) counts 2.7 times the estimate. Where the masking waited and what ran after the guard changed the
 * contents, the provider refused the request, the retry was ruled out, and the "input token count exceeds" error
 * reached the user: a callback that copied the contents (trial 48), one that edits only a turn's first call, seen
 * unchanged on the tool steps before it (trial 50); review 41's plugin that redacted only what it found is one case of
 * a plugin after the guard, which rules waiting out whatever it did before (the observing plugin below).
 */
import { BasePlugin, InMemorySessionService, LlmAgent, Runner, type LlmRequest } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { proseText, ScriptedLlm, ScriptedSummarizer, SeededRandom } from '../../src/testing/index.js';
import { digitSplittingCount } from '../support/digit-splitting-count.js';
import { recordScript, recordTool, redactInPlace } from '../support/record-keeper.js';

function numbers(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  let text = '';
  while (text.length < chars) text += `${random.next()}${random.next()}${random.next()},`;
  return text.slice(0, chars);
}

const fetchRecord = recordTool((turn) => (turn === 12 ? numbers(1_800, turn + 7) : proseText(3_000, turn + 1_000)));
const proseRecords = recordTool((turn) => proseText(3_000, turn + 1_000));
const script = recordScript({ noteChars: 200 });

/** An agent's callback that hands the model equal contents in new objects: a retry keeps what it did. */
const copyContents = ({ request }: { request: LlmRequest }) => {
  request.contents = request.contents.map((content) => ({
    ...content,
    parts: content.parts?.map((part) => ({ ...part })),
  }));
  return undefined;
};

/** One that adds a line to the user's message, on a turn's first call only: its tool steps go unchanged. */
const briefFirstCalls = ({ request }: { request: LlmRequest }) => {
  const last = request.contents.at(-1)?.parts?.at(-1);
  if (last?.text !== undefined) last.text += ' (Answer briefly.)';
  return undefined;
};

/** A plugin that reads every request and changes none. */
class ObservingPlugin extends BasePlugin {
  seen = 0;
  constructor() {
    super('observer');
  }
  override async beforeModelCallback({ llmRequest }: { llmRequest: LlmRequest }) {
    this.seen += llmRequest.contents.length;
    return undefined;
  }
}

class BriefFirstCallsPlugin extends BasePlugin {
  constructor() {
    super('brief_first_calls');
  }
  override async beforeModelCallback({ llmRequest }: { llmRequest: LlmRequest }) {
    return briefFirstCalls({ request: llmRequest });
  }
}

interface Setup {
  readonly beforeModelCallback?: typeof copyContents;
  readonly pluginAfter?: BasePlugin;
  /** Turn 12's numbers come in the user's message rather than the tool's result. */
  readonly numbersFromUser?: boolean;
}

function message(turn: number, setup: Setup): string {
  const ask = `Turn ${turn}: fetch my record please.`;
  return turn === 12 && setup.numbersFromUser ? `${ask} My statement: ${numbers(1_800, 19)}` : ask;
}

async function run(setup: Setup) {
  const model = new ScriptedLlm({ window: 8_000, countTokens: digitSplittingCount, script });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You keep records for the user.',
    tools: [setup.numbersFromUser ? proseRecords : fetchRecord],
    ...(setup.beforeModelCallback && { beforeModelCallback: setup.beforeModelCallback }),
  });
  const guard = new ContextGuard({ contextWindow: 8_000, summarizer: new ScriptedSummarizer() });
  const sessionService = new InMemorySessionService();
  const plugins = setup.pluginAfter ? [guard, setup.pluginAfter] : [guard];
  const runner = new Runner({ appName: 'records', agent, sessionService, plugins });
  const session = await sessionService.createSession({ appName: 'records', userId: 'u' });
  const errors: string[] = [];
  for (let turn = 1; turn <= 13; turn++)
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: message(turn, setup) }] },
    }))
      if (event.errorCode) errors.push(`${event.errorCode}: ${event.errorMessage ?? ''}`);
  const stored = await sessionService.getSession({ appName: 'records', userId: 'u', sessionId: session.id });
  return {
    errors,
    rejected: model.rejectedRequests.length,
    status: stored ? guard.status(stored, 'worker') : undefined,
  };
}

describe('a masking that could wait, on an agent with a before-model callback of its own', () => {
  it('should be made at the threshold where the callback edits the contents: no rejection, no error', async () => {
    const { errors, rejected } = await run({ beforeModelCallback: redactInPlace });
    expect(errors).toEqual([]);
    expect(rejected).toBe(0);
  });

  it('should be made at the threshold where the callback only copies them: no rejection, no error', async () => {
    const { errors, rejected } = await run({ beforeModelCallback: copyContents });
    expect(errors).toEqual([]);
    expect(rejected).toBe(0);
  });

  it("should be made at the threshold where the callback edits only a turn's first call: no error", async () => {
    const { errors, rejected } = await run({ beforeModelCallback: briefFirstCalls, numbersFromUser: true });
    expect(errors).toEqual([]);
    expect(rejected).toBe(0);
  });
});

describe('a masking that could wait, with a plugin after the guard', () => {
  it("should not wait behind a plugin that changes a turn's first call, though it leaves the tool steps alone", async () => {
    const { errors, rejected } = await run({ pluginAfter: new BriefFirstCallsPlugin(), numbersFromUser: true });
    expect(errors).toEqual([]);
    expect(rejected).toBe(0);
  });

  it('should not wait behind one that only observes: whether a plugin edits a call is not known before it runs', async () => {
    const { errors, rejected } = await run({ pluginAfter: new ObservingPlugin(), numbersFromUser: true });
    expect(errors).toEqual([]);
    expect(rejected).toBe(0);
  });
});

describe('a masking that could wait, with nothing after the guard', () => {
  it('should wait, the rejection retried in the call: no error', async () => {
    const { errors, rejected, status } = await run({ numbersFromUser: true });
    expect(errors).toEqual([]);
    // It waited: the numbers went out past the threshold, were refused, and the request was retried masked.
    expect(rejected).toBeGreaterThan(0);
    expect(status?.retriedCalls).toBe(rejected);
  });
});
