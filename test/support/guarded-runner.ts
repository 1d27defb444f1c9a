/**
 * A real Runner with one `ContextGuard` plugin on `window`, its summaries by the scripted summarizer, on a fresh
 * in-memory session.
 */
import { InMemorySessionService, Runner, type LlmAgent } from '@google/adk';
import { ContextGuard } from '../../src/index.js';
import { ScriptedSummarizerLlm } from '../../src/testing/index.js';
import { APP_NAME, USER_ID } from './agent-harness.js';

export async function guardedRunner(agent: LlmAgent, window: number) {
  const guard = new ContextGuard({
    contextWindow: window,
    summarizer: new ScriptedSummarizerLlm(),
    modelWindows: { 'scripted-summarizer': 1_000_000 },
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  return { guard, sessionService, runner, sessionId: id };
}
