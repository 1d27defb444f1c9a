/**
 * A session's first message on a Gemini agent whose own beforeModelCallback edits the contents in place (a
 * redaction, as ADK's guardrail examples do), through a real Runner, to a provider that counts 1.3 tokens for each
 * estimated one. A rejected request whose contents a callback after the guard edited is not retried (a retry cannot
 * keep the edit), so the guard must not send the message whole on the estimate here (design.md, "The first call,
 * before any real count"): it is cut at the default correction, as before. Found by the review of the first-call
 * change, whose first version sent it whole and let the 400 reach the user.
 */
import { LogLevel, setLogLevel, type SingleBeforeModelCallback } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { tiktokenTokenizer } from '../../src/index.js';
import { faultHarness } from '../support/fault-harness.js';
import { payloadText } from '../support/payloads.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;

/** A pasted document of about `share` of the window by the guard's estimate. */
function pasted(share: number): string {
  for (let chars = 20_000; ; chars += 2_000) {
    const text = `Contract: ${payloadText('prose', chars, 1)} MIDDLE-CLAUSE-7 ${payloadText('prose', chars, 2)} END`;
    if (tiktokenTokenizer.count(text) >= WINDOW * share) return text;
  }
}

/** Redacts a word in every text part, in place: an edit of the contents the guard sent, not an addition. */
const redact: SingleBeforeModelCallback = ({ request }) => {
  for (const content of request.contents ?? [])
    for (const part of content.parts ?? []) if (part.text) part.text = part.text.replace(/Contract/g, '[redacted]');
  return undefined;
};

describe("a session's first message sent whole, edited in place by the agent's own callback", () => {
  it('should not let the rejection of the message the guard risked reach the user as an error event', async () => {
    const h = await faultHarness({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      ratio: 1.3,
      toolChars: 0,
      beforeModelCallback: redact,
    });
    const outcome = await h.turn(pasted(0.85));
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.errorCodes).toEqual([]);
    // Whatever was sent last is under the window, and still redacted.
    const last = h.model.requests.at(-1)!;
    expect(last.promptTokens).toBeLessThanOrEqual(WINDOW);
    expect(JSON.stringify(last.contents)).not.toContain('Contract');
  });
});
