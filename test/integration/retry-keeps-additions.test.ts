/**
 * What the agent's own before-model callbacks and plugins registered after the guard add to a request
 * is part of what is sent: on the first attempt and on the in-call retry of a rejected call alike. ADK
 * runs them after the guard's plugin callback, on the same request, so the guard measures the request
 * before they add to it; when the provider rejects it as too long, the retry reduces the history for
 * the request as it was rejected, additions kept, and re-applies them; when even the least history
 * cannot make room for them, one warning names their tokens and the rejection reaches the agent.
 */
import {
  BasePlugin,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type Context,
  type Event,
  type LlmRequest,
  type LlmResponse,
  type SingleBeforeModelCallback,
} from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard, type ContextGuardOptions } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor, type UsageRecord } from '../../src/internal.js';
import {
  CapturingLogger,
  contentsText,
  proseText,
  ScriptedLlm,
  ScriptedSummarizer,
  type ModelScript,
  type RecordedRequest,
} from '../../src/testing/index.js';
import { errorCodes, fetchLogsTool, toolThenAnswerScript, userMessage } from '../support/agent-harness.js';
import { proportionalCounter } from '../support/proportional-counter.js';

const WINDOW = 8_000;
const APP = 'retry-additions';
const USER = 'user-r';

/** Adds `content(request)` to each request while `on()` says so. */
type Addition = (request: LlmRequest) => void;

/** A plugin registered after the guard, adding to the request as a retrieval plugin would. */
class AddingPlugin extends BasePlugin {
  constructor(private readonly add: Addition) {
    super('adding_plugin');
  }
  override async beforeModelCallback({ llmRequest }: { callbackContext: Context; llmRequest: LlmRequest }) {
    this.add(llmRequest);
    return undefined as LlmResponse | undefined;
  }
}

/** `script`, blind to the contents the tests add (a model reads them as context, not as the user's turn). */
function ignoringAdded(script: ModelScript): ModelScript {
  const isAdded = (content: Content) => !!content.parts?.some((part) => part.text?.startsWith(ADDED_MARK));
  return (call) =>
    script({
      ...call,
      request: { ...call.request, contents: call.request.contents.filter((content) => !isAdded(content)) },
    });
}

interface World {
  readonly model: ScriptedLlm;
  readonly guard: ContextGuard;
  readonly logger: CapturingLogger;
  turn(text: string): Promise<Event[]>;
  status(): Promise<ReturnType<ContextGuard['status']>>;
  usage(): Promise<UsageRecord>;
}

/** The log analyst on a real Runner, `add` run either as its own callback or as a plugin after the guard. */
async function world(add: Addition, by: 'agent' | 'plugin', guardOptions: ContextGuardOptions = {}): Promise<World> {
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: proportionalCounter(1.3),
    script: ignoringAdded(toolThenAnswerScript(3_000)),
  });
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger, ...guardOptions });
  const callback: SingleBeforeModelCallback = ({ request }) => void add(request);
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You analyse server logs.',
    tools: [fetchLogsTool()],
    ...(by === 'agent' ? { beforeModelCallback: callback } : {}),
  });
  const plugins = by === 'plugin' ? [guard, new AddingPlugin(add)] : [guard];
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent, sessionService, plugins });
  const session = await sessionService.createSession({ appName: APP, userId: USER });
  const stored = async () => (await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id }))!;
  return {
    model,
    guard,
    logger,
    turn: async (text) => {
      const events: Event[] = [];
      for await (const event of runner.runAsync({ userId: USER, sessionId: session.id, newMessage: userMessage(text) }))
        events.push(event);
      return events;
    },
    status: async () => guard.status(await stored(), 'worker'),
    usage: async () => decodeUsageRecord((await stored()).state[stateKeysFor('worker').usage]),
  };
}

/** Everything a recorded request sent: its system instruction and contents. */
function sentText(request: RecordedRequest): string {
  return `${request.systemInstruction ?? ''}\n${contentsText(request.contents)}`;
}

/** Every added content's text starts with it. */
const ADDED_MARK = 'Retrieved';
const SPIKE_MARK = 'Retrieved policy RETRIEVED-POLICY-7';
/** A retrieval block of about `tokens` real tokens. */
function spikeText(tokens: number): string {
  return `${SPIKE_MARK}\n${proseText(Math.round(tokens * 3.2), 11)}`;
}

/** Adds a retrieval block to the system instruction or as a user content, while `state.on`. */
function spiking(where: 'system' | 'contents', tokens: number, state: { on: boolean }): Addition {
  const block = spikeText(tokens);
  return (request) => {
    if (!state.on) return;
    if (where === 'contents') {
      request.contents.push({ role: 'user', parts: [{ text: block }] });
      return;
    }
    request.config ??= {};
    const instruction = request.config.systemInstruction;
    request.config.systemInstruction = `${typeof instruction === 'string' ? instruction : ''}\n${block}`;
  };
}

/** Adds the same small profile content to every request, as an app's personalisation does. */
const PROFILE = 'Retrieved profile: PROFILE-LANG-FR. Always answer in French.';
const addProfile: Addition = (request) => void request.contents.push({ role: 'user', parts: [{ text: PROFILE }] });

/** Runs turns until the model rejected a request (at most `max`), then one more. */
async function turnsUntilRejected(w: World, max: number): Promise<Event[]> {
  const events: Event[] = [];
  for (let turn = 1; turn <= max && w.model.rejectedRequests.length === 0; turn++)
    events.push(...(await w.turn(`Turn ${turn}: check the logs.`)));
  events.push(...(await w.turn('One more turn: check the logs.')));
  return events;
}

describe('a rejected call whose request the agent or a later plugin added to', () => {
  it.each([
    ['system', 'agent'],
    ['contents', 'agent'],
    ['contents', 'plugin'],
  ] as const)(
    'should be retried with the %s block the %s added, the history reduced for it: no error event, no summary thrown away',
    async (where, by) => {
      const state = { on: false };
      const w = await world(spiking(where, 4_500, state), by, { contextWindow: WINDOW });
      for (let turn = 1; turn <= 3; turn++) await w.turn(`Turn ${turn}: check the logs.`);
      const before = w.model.requests.length;
      // The history alone fits; with the block it does not, unless it is reduced.
      expect(w.model.requests.at(-1)!.promptTokens).toBeGreaterThan(5_000);
      state.on = true;
      const events = await w.turn('Turn 4: what does the policy say?');

      // Before: the 400 event ("cannot be made smaller; not retried").
      expect(errorCodes(events)).toEqual([]);
      const sent = w.model.requests.slice(before);
      expect(sent[0]!.rejected).toBe(true);
      expect(sent.slice(1).every((request) => !request.rejected)).toBe(true);
      // The retry is the next request, and it carries the block, as the first attempt did.
      expect(sent.map((request) => sentText(request).includes(SPIKE_MARK))).toEqual(sent.map(() => true));
      const status = await w.status();
      expect({ rejected: status.rejectedCalls, retried: status.retriedCalls }).toEqual({ rejected: 1, retried: 1 });
      // The summaries and maskings the retry made are the ones it sent.
      expect((await w.usage()).discardedCompactions).toBe(0);
      expect(w.logger.matching(/not retried/)).toEqual([]);
    },
  );

  it.each([
    ['agent', 'masked for cost', { maskStaleOutputTokens: 512 }],
    ['plugin', 'masked for cost', { maskStaleOutputTokens: 512 }],
    ['agent', 'left as ADK built them', {}],
  ] as const)(
    'should keep in the retried request the content the %s adds to every request (window learned from the rejection; contents %s)',
    async (by, _contents, options) => {
      // No contextWindow: the guard assumes a large window until the provider's rejection states 8,000.
      const w = await world(addProfile, by, options);
      const events = await turnsUntilRejected(w, 40);
      expect(errorCodes(events)).toEqual([]);
      expect(w.model.rejectedRequests).toHaveLength(1);
      // Before, where the guard had rewritten the contents: the retried request, and only it, lacked the profile.
      const profiles = (request: RecordedRequest) => sentText(request).split(PROFILE).length - 1;
      const notOnce = w.model.requests.filter((request) => profiles(request) !== 1);
      expect(notOnce.map((request) => request.index)).toEqual([]);
      const retry = w.model.requests[w.model.rejectedRequests[0]!.index + 1]!;
      expect(retry.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: PROFILE }] });
      expect((await w.status()).retriedCalls).toBe(1);
    },
  );

  it('should let the rejection through with one warning naming the added tokens when even the least history cannot make room for them', async () => {
    const state = { on: false };
    const w = await world(spiking('system', 12_000, state), 'agent', { contextWindow: WINDOW });
    for (let turn = 1; turn <= 3; turn++) await w.turn(`Turn ${turn}: check the logs.`);
    const before = w.model.requests.length;
    state.on = true;
    const events = await w.turn('Turn 4: what does the policy say?');
    expect(errorCodes(events)).toEqual(['400']);
    expect(w.model.requests.slice(before).map((request) => request.rejected)).toEqual([true]);
    const warnings = w.logger.matching(/not retried/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe('warn');
    expect(warnings[0]!.message).toMatch(/~\d+ of its tokens were added after the guard measured it/);
    expect(warnings[0]!.message).toMatch(/plugins registered after the guard/);
    expect(w.logger.matching('cannot be made smaller')).toEqual([]);
  });

  it("should not retry, and say why, when the agent's callback rewrote the contents the guard sent", async () => {
    // A redaction that copies every content and changes some: a retry from the guard's copy would undo it.
    const redact: Addition = (request) => {
      request.contents = request.contents.map((content) => ({
        ...content,
        parts: (content.parts ?? []).map((part) =>
          part.text ? { ...part, text: part.text.replace(/\d/g, '#') } : part,
        ),
      }));
    };
    const w = await world(redact, 'agent');
    const events = await turnsUntilRejected(w, 40);
    // Before: retried silently from the guard's copy, without the callback's changes.
    expect(errorCodes(events)).toEqual(['400']);
    expect((await w.status()).retriedCalls).toBe(0);
    expect(w.logger.matching(/changed the contents the guard sent/)).toHaveLength(1);
  });

  it("should retry when the agent's callback only copied the contents the guard sent (trial 48)", async () => {
    const copy: Addition = (request) => {
      request.contents = request.contents.map((content) => ({
        ...content,
        parts: (content.parts ?? []).map((part) => ({ ...part })),
      }));
    };
    const w = await world(copy, 'agent');
    const events = await turnsUntilRejected(w, 40);
    expect(w.model.rejectedRequests).toHaveLength(1);
    // Before: the 400 event, "changed the contents the guard sent", for contents equal to them.
    expect(errorCodes(events)).toEqual([]);
    expect((await w.status()).retriedCalls).toBe(1);
  });
});

describe('a rejected call whose request a later plugin edited in place', () => {
  it("should not retry, and say why, when a plugin pushed a part into the guard's budget line", async () => {
    // Marked as added: the script reads the content it is in (the budget line) as context, not as the user's turn.
    const NOTE = `${ADDED_MARK} note: NOTE-IN-PLACE-3.`;
    // The last content is the guard's budget line: the plugin edits that object, adding no content.
    const addNote: Addition = (request) => void request.contents.at(-1)!.parts!.push({ text: NOTE });
    const w = await world(addNote, 'plugin', { budgetLine: true });
    const events = await turnsUntilRejected(w, 40);
    expect(w.model.rejectedRequests).toHaveLength(1);
    // Before: retried from a fresh budget line, the retried request (only it) without the note, silently.
    const notOnce = w.model.requests.filter((request) => sentText(request).split(NOTE).length - 1 !== 1);
    expect(notOnce.map((request) => request.index)).toEqual([]);
    expect(errorCodes(events)).toEqual(['400']);
    expect((await w.status()).retriedCalls).toBe(0);
    const warnings = w.logger.matching(/changed the contents the guard sent/);
    expect(warnings.map((line) => line.level)).toEqual(['warn']);
  });
});

describe("the over-limit warning of a request the agent's callbacks add to", () => {
  it("should name the callbacks' additions apart, not count them as the system instruction", async () => {
    // Memory notes the agent's callback puts first in every request, too large to leave room for any history.
    const notes = `Retrieved memory notes:\n${proseText(34_000, 5)}`;
    const addNotes: Addition = (request) => void request.contents.unshift({ role: 'user', parts: [{ text: notes }] });
    const w = await world(addNotes, 'agent', { contextWindow: WINDOW });
    for (let turn = 1; turn <= 3; turn++) await w.turn(`Turn ${turn}: check the logs.`);
    expect(w.model.rejectedRequests).toEqual([]);
    const warnings = w.logger.matching(/over the hard limit/).map((line) => line.message);
    expect(warnings).toHaveLength(1);
    // Before: "system instruction, tools and pins alone are ~7571", the notes counted as the instruction.
    const figures =
      /system instruction, tools and pins alone are ~(\d+), and what the agent's own before-model callbacks or plugins registered after the guard added to the last request ~(\d+)/.exec(
        warnings[0]!,
      );
    expect(Number(figures?.[1])).toBeLessThan(500);
    expect(Number(figures?.[2])).toBeGreaterThan(6_000);
  });
});
