/**
 * One turn of a session whose first message, a pasted document at 60% of a 16,000-token window by the guard's
 * estimate, goes to a provider that counts 1.7 tokens for each estimated one and rejects a prompt over the window
 * with `wording` (given the prompt's count): a real Runner with the guard as plugin. For tests of which rejection
 * wordings the guard reads and retries inside the call.
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ScriptedSummarizerLlm } from '../../src/testing/index.js';
import { payloadText } from './payloads.js';
import { proportionalCounter } from './proportional-counter.js';

export const REJECTING_WINDOW = 16_000;

/** A pasted document of about `share` of the window by the guard's estimate, with a marked middle. */
function pasted(share: number): string {
  for (let chars = 15_000; ; chars += 200) {
    const text = `Contract: ${payloadText('prose', chars, 1)} MIDDLE-CLAUSE-7 ${payloadText('prose', 15_000, 2)} END`;
    if (tiktokenTokenizer.count(text) >= REJECTING_WINDOW * share) return text;
  }
}

export async function firstMessageRejected(wording: (promptTokens: number) => string) {
  const model = new ScriptedLlm({
    window: Number.MAX_SAFE_INTEGER,
    countTokens: proportionalCounter(1.7),
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `Answer ${index}` }] } }),
    fail: ({ promptTokens }) => (promptTokens > REJECTING_WINDOW ? new Error(wording(promptTokens)) : undefined),
  });
  const guard = new ContextGuard({
    contextWindow: REJECTING_WINDOW,
    summarizer: new ScriptedSummarizerLlm(),
    modelWindows: { 'scripted-summarizer': 32_000 },
    logger: new CapturingLogger(),
  });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse documents.' });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'words', agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: 'words', userId: 'u' });
  const errors: string[] = [];
  const newMessage = { role: 'user', parts: [{ text: pasted(0.6) }] };
  for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage }))
    if (event.errorCode) errors.push(`${event.errorCode}`);
  const stored = await sessionService.getSession({ appName: 'words', userId: 'u', sessionId: session.id });
  return { errors, model, status: guard.status(stored, 'worker') };
}
