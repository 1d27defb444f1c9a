/**
 * `status()` right after an agent's first call: before it the guard held the request at its estimate times
 * the default correction (1.5), a guess; the provider's count of that request has come back since. The
 * seventh outside trial found `percentUsed` 128.8 for a request the provider counted at 86% of the window,
 * `turnsLeft` counted to the threshold capped for want of a count, and `calibrated: true` beside it.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { faultHarness } from '../support/fault-harness.js';
import { payloadText } from '../support/payloads.js';
import { formatContextMeter, tiktokenTokenizer } from '../../src/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;

function documentOf(share: number): string {
  for (let chars = 8_000; ; chars += 1_000) {
    const text = `Please read this: ${payloadText('prose', chars, 3)}`;
    if (tiktokenTokenizer.count(text) >= WINDOW * share) return text;
  }
}

describe('status() after an agent first call', () => {
  it('should state the share of the window the provider counted, and the threshold the next call is held to', async () => {
    const h = await faultHarness({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      ratio: 1,
      toolChars: 0,
      script: callThenAnswer({ call: () => undefined, answer: () => 'Read.' }),
    });
    const outcome = await h.turn(documentOf(0.6));
    expect(outcome.errorCodes).toEqual([]);
    const [first] = h.model.requests;
    const status = h.guard.status({ state: await h.state() }, h.agentName);
    expect(status.calibrated).toBe(true);
    expect(status.usedTokens).toBe(first!.promptTokens);
    expect(status.percentUsed).toBe(Math.round((first!.promptTokens / WINDOW) * 1000) / 10);
    // The estimate of that request stays what it was: the provider's count is not passed off as one.
    expect(status.estimatedTokens).toBeGreaterThan(first!.promptTokens * 1.4);
    // The calibrated threshold (80% of 16,000), not the 50% held before any count.
    expect(status.threshold).toBe(12_800);
    expect(formatContextMeter(status)).toContain(`(${status.percentUsed}%)`);
    // The next call is held to it: a short turn sends the document again without a summary.
    await h.turn('And what does it say about the weather?');
    expect(h.records).toEqual([]);
    const next = h.guard.status({ state: await h.state() }, h.agentName);
    expect(next.threshold).toBe(12_800);
    expect(next.usedTokens).toBe(h.model.requests.at(-1)!.promptTokens);
  });

  it('should state the hard limit the next call is held to, never below its threshold, on a 1M window', async () => {
    // The thirty-second outside trial: threshold 1,028,576 (the window less its 20,000 buffer) beside the hard limit
    // 996,147 of the call before any count (95% of the window), which the next call raises to the threshold.
    const h = await faultHarness({
      model: 'gemini-2.5-flash',
      window: 1_048_576,
      ratio: 1,
      toolChars: 0,
      script: callThenAnswer({ call: () => undefined, answer: () => 'Read.' }),
    });
    await h.turn('Hello there.');
    const first = h.guard.status({ state: await h.state() }, h.agentName);
    expect(first.threshold).toBe(1_028_576);
    await h.turn('And again.');
    const next = h.guard.status({ state: await h.state() }, h.agentName);
    expect(next.hardLimit).toBe(1_028_576);
    expect(first.hardLimit).toBe(next.hardLimit);
  });
});
