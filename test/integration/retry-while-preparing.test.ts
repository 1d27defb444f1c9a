/**
 * A call rejected as too long while a summary is prepared in the background from that very call. The
 * preparation reads the agent's request (the default summarizer is the agent's own model) and starts once
 * the call has returned, so the provider has its prefix cached; the in-call retry of the rejected call may
 * take that prepared summary. The rejection is the call's return: without it the two waited for each
 * other and the user's turn never ended (an outside trial: a plugin after the guard adding a retrieval
 * block on one call, with the window set right). With the block on call 10 a preparation is in flight
 * when the call is rejected (the turn hung before the fix); on call 11 none is.
 */
import {
  BasePlugin,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type Context,
  type Event,
  type LlmRequest,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, proseText, ScriptedLlm } from '../../src/testing/index.js';
import { errorCodes, fetchLogsTool, toolThenAnswerScript, userMessage } from '../support/agent-harness.js';
import { proportionalCounter } from '../support/proportional-counter.js';

const WINDOW = 8_000;
const APP = 'retry-preparing';
const USER = 'user-p';
/** Longer than any turn here takes; far shorter than the 120 s a call's waiter is given up after. */
const TURN_LIMIT_MS = 20_000;

/** A retrieval plugin registered after the guard: one large block on its `spikeAt`th call. */
class SpikeOnce extends BasePlugin {
  private calls = 0;
  constructor(private readonly spikeAt: number) {
    super('retrieval');
  }
  override async beforeModelCallback({ llmRequest }: { callbackContext: Context; llmRequest: LlmRequest }) {
    if (++this.calls === this.spikeAt)
      llmRequest.contents.push({ role: 'user', parts: [{ text: `Retrieved ${proseText(9_000, this.calls)}` }] });
    return undefined;
  }
}

/** Resolves with the turn's events, or rejects once `TURN_LIMIT_MS` passed. */
async function turnWithin(runner: Runner, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  const run = (async () => {
    for await (const event of runner.runAsync({ userId: USER, sessionId, newMessage: userMessage(text) }))
      events.push(event);
    return events;
  })();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`turn '${text}' still running after ${TURN_LIMIT_MS} ms`)),
      TURN_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([run, limit]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a rejected call while a summary is prepared from it', () => {
  it.each([10, 11])(
    'should end every turn with no error event when the block comes on call %i',
    async (spikeAt) => {
      const model = new ScriptedLlm({
        window: WINDOW,
        countTokens: proportionalCounter(1.3),
        script: toolThenAnswerScript(3_000),
      });
      const logger = new CapturingLogger();
      // The window set right; the agent's own model summarizes (the default), so preparations read its request.
      const guard = new ContextGuard({ contextWindow: WINDOW, maskKeepRecent: 0, logger });
      const agent = new LlmAgent({
        name: 'worker',
        model,
        instruction: 'You analyse server logs.',
        tools: [fetchLogsTool()],
      });
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: APP, agent, sessionService, plugins: [guard, new SpikeOnce(spikeAt)] });
      const session = await sessionService.createSession({ appName: APP, userId: USER });
      const errors: string[] = [];
      for (let turn = 1; turn <= 6; turn++)
        errors.push(...errorCodes(await turnWithin(runner, session.id, `Turn ${turn}: fetch the logs and report.`)));
      expect(errors).toEqual([]);
      // The block was rejected once and the call retried inside itself.
      expect(model.requests.filter((request) => request.rejected).length).toBeGreaterThanOrEqual(1);
    },
    60_000,
  );
});
