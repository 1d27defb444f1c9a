/**
 * A session's first call, before the provider has reported any count, through a real Runner: the guard
 * multiplies its estimate by the default correction (1.5) until then. A user's message that fits the window
 * by the estimate is sent whole, not cut because the correction, a guess, puts it over the hard limit (the
 * sixth outside trial: a pasted contract at 63% of a 16k window lost its middle on every new session). If
 * the provider does find it too long, the rejection is retried inside the call with the message cut.
 */
import { AgentTool, InMemorySessionService, LlmAgent, LogLevel, Runner, setLogLevel } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { faultHarness } from '../support/fault-harness.js';
import { payloadText } from '../support/payloads.js';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, SENT_WHOLE_NOTE } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { proportionalCounter } from '../support/proportional-counter.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;

/** A pasted document of about `share` of the window by o200k (the guard's estimate), with a marked middle. */
function pasted(share: number): string {
  const half = (chars: number, seed: number) => payloadText('prose', chars, seed);
  // Grow until the estimate reaches the share: prose counts about four characters a token.
  for (let chars = 20_000; ; chars += 2_000) {
    const text = `Here is the contract: ${half(chars, 1)} MIDDLE-CLAUSE-7 ${half(chars, 2)} END-OF-CONTRACT`;
    if (tiktokenTokenizer.count(text) >= WINDOW * share) return text;
  }
}

/** The text of the user content of `request` that starts like `message`. */
function sentText(contents: readonly Content[], message: string): string | undefined {
  for (const content of contents) {
    const text = content.parts?.map((part) => part.text ?? '').join('') ?? '';
    if (content.role === 'user' && text.startsWith(message.slice(0, 40))) return text;
  }
  return undefined;
}

describe("a session's first call, before any real count", () => {
  it('should send a user message that fits by the estimate whole, though the default correction puts it over the hard limit', async () => {
    // 70% of the window by the estimate, and by the provider's count (ratio 1): 105% at the default correction.
    const message = pasted(0.7);
    for (let session = 0; session < 2; session++) {
      const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio: 1, toolChars: 0 });
      const outcome = await h.turn(message);
      expect(outcome.thrown).toBeUndefined();
      expect(outcome.errorCodes).toEqual([]);
      const first = h.model.requests[0]!;
      expect(sentText(first.contents, message)).toBe(message);
      expect(first.promptTokens).toBeLessThanOrEqual(WINDOW);
      // Said at info, not warned about as a request over the hard limit, and not counted as one.
      expect(h.overLimitWarnings()).toBe(0);
      expect(h.logger.matching(SENT_WHOLE_NOTE).map((line) => line.level)).toEqual(['info']);
      expect((await h.usage()).overLimitCalls).toBe(0);
      // The next turn is calibrated by the provider's count: the message is still sent whole.
      await h.turn('What does the middle clause say?');
      const second = h.model.requests.at(-1)!;
      expect(sentText(second.contents, message)).toBe(message);
      expect(h.model.requests.every((request) => !request.rejected)).toBe(true);
    }
  });

  it('should cut the message inside the call when the provider finds it too long after all', async () => {
    // 80% of the window by the estimate, but the provider counts 1.3 tokens for each: 104% of the window.
    const message = pasted(0.8);
    const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio: 1.3, toolChars: 0 });
    const outcome = await h.turn(message);
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.errorCodes).toEqual([]);
    const [rejected, retried] = h.model.requests;
    expect(rejected?.rejected).toBe(true);
    expect(sentText(rejected!.contents, message)).toBe(message);
    // Retried in the same call with the message cut head and tail, under the window.
    expect(retried?.rejected).toBe(false);
    expect(retried!.promptTokens).toBeLessThanOrEqual(WINDOW);
    const cut = sentText(retried!.contents, message)!;
    expect(cut.length).toBeLessThan(message.length);
    expect(cut.startsWith(message.slice(0, 2_000))).toBe(true);
    expect(cut.endsWith('END-OF-CONTRACT')).toBe(true);
    const usage = await h.usage();
    expect(usage.rejectedCalls).toBe(1);
    expect(usage.retriedCalls).toBe(1);
  });

  it('should cut a message over the hard limit by the estimate only to the hard limit, and say so', async () => {
    // 97% of the window by the estimate and by the provider: before, it was cut to what the threshold at the
    // default correction leaves (a third of the window), and nothing was logged.
    const message = pasted(0.97);
    const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio: 1, toolChars: 0 });
    const outcome = await h.turn(message);
    expect(outcome.errorCodes).toEqual([]);
    const [first] = h.model.requests;
    expect(first?.rejected).toBe(false);
    expect(first!.promptTokens).toBeLessThanOrEqual(WINDOW * 0.95);
    expect(first!.promptTokens).toBeGreaterThan(WINDOW * 0.85);
    const cut = sentText(first!.contents, message)!;
    expect(cut.length).toBeLessThan(message.length);
    expect(cut.endsWith('END-OF-CONTRACT')).toBe(true);
    const notes = h.logger.matching(/the turn's user content \(~\d+ tokens: .*\) does not fit/);
    expect(notes.map((line) => line.level)).toEqual(['info']);
    expect(h.overLimitWarnings()).toBe(0);
    // Cut by the estimate, the note says so and states what was sent under the limit it names (review 41: scaled
    // by the default correction, the sent figure stood above the hard limit and the window in the same line).
    const note = notes[0]?.message ?? '';
    expect(note).toContain('tokens by the estimate');
    const limit = Number(/under the hard limit of (\d+)/.exec(note)?.[1]);
    expect(Number(/cut head and tail to ~(\d+) tokens/.exec(note)?.[1])).toBeLessThanOrEqual(limit);
  });

  it('should cut that message deeper inside the call when the provider finds it too long after all', async () => {
    const message = pasted(0.97);
    const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio: 1.3, toolChars: 0 });
    const outcome = await h.turn(message);
    expect(outcome.errorCodes).toEqual([]);
    const [rejected, retried] = h.model.requests;
    expect(rejected?.rejected).toBe(true);
    expect(retried?.rejected).toBe(false);
    expect(retried!.promptTokens).toBeLessThanOrEqual(WINDOW);
    expect(sentText(retried!.contents, message)!.length).toBeLessThan(sentText(rejected!.contents, message)!.length);
    // The retry's line states its size calibrated, as the limits are (trial 49: the estimate, 1.3x below, was shown).
    const [line] = h.logger.matching('retrying the rejected call once');
    const stated = Number(/at ~(\d+) tokens \(calibrated/.exec(line?.message ?? '')?.[1]);
    expect(stated).toBeGreaterThan(retried!.promptTokens * 0.9);
    expect(stated).toBeLessThan(retried!.promptTokens * 1.15);
  });

  it.each([
    ['a model other than Gemini', { model: 'scripted-model' }],
    ['a defaultCorrection given, even the default', { guard: { defaultCorrection: 1.5 } }],
    ["the agent's own before-model callback", { beforeModelCallback: () => undefined }],
  ] as const)('should cut it at the default correction as before with %s', async (_label, options) => {
    const message = pasted(0.7);
    const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio: 1, toolChars: 0, ...options });
    const outcome = await h.turn(message);
    expect(outcome.errorCodes).toEqual([]);
    expect(sentText(h.model.requests[0]!.contents, message)!.length).toBeLessThan(message.length);
    expect(h.logger.matching(SENT_WHOLE_NOTE)).toEqual([]);
  });

  it("should send an AgentTool child's first input whole too (the guard attached to the child, no plugin there)", async () => {
    const message = pasted(0.7);
    const childModel = new ScriptedLlm({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      countTokens: proportionalCounter(1),
      script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `Read ${index}.` }] } }),
    });
    const leadModel = new ScriptedLlm({
      model: 'scripted-lead',
      window: 200_000,
      countTokens: proportionalCounter(1),
      script: callThenAnswer({
        after: 'reader',
        call: () => ({ name: 'reader', args: { request: message } }),
        answer: () => 'Done.',
      }),
    });
    const reader = new LlmAgent({ name: 'reader', model: childModel, instruction: 'You read documents.' });
    const lead = new LlmAgent({ name: 'lead', model: leadModel, tools: [new AgentTool({ agent: reader })] });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ modelWindows: { 'scripted-lead': 200_000, 'gemini-2.5-flash': WINDOW }, logger });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'child-first', agent: lead, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: 'child-first', userId: 'u' });
    const errors: string[] = [];
    const newMessage = { role: 'user', parts: [{ text: 'Have the reader read it.' }] };
    for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage }))
      if (event.errorCode) errors.push(`${event.errorCode}`);
    expect(errors).toEqual([]);
    expect(sentText(childModel.requests[0]!.contents, message)).toBe(message);
    expect(logger.matching(SENT_WHOLE_NOTE).some((line) => line.message.includes("'reader'"))).toBe(true);
  });

  it('should hold the message to the default correction on a later call the provider never counted', async () => {
    // A provider that reports no usage: past the agent's first call the default correction is all there is.
    const message = pasted(0.7);
    const h = await faultHarness({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      ratio: 1,
      toolChars: 0,
      reportUsage: false,
    });
    await h.turn('Hello.');
    const outcome = await h.turn(message);
    expect(outcome.errorCodes).toEqual([]);
    const sent = sentText(h.model.requests.at(-1)!.contents, message)!;
    expect(sent.length).toBeLessThan(message.length);
    expect(h.logger.matching(SENT_WHOLE_NOTE)).toEqual([]);
  });
});
