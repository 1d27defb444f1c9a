/**
 * Turns of an analyst agent on a given model (a `RoutedLlm` in the tests that use it) through a real Runner with the
 * guard as a plugin: the error events, the guard's status and its log lines.
 */
import { InMemorySessionService, LlmAgent, Runner, type BaseLlm } from '@google/adk';
import { ContextGuard, type ContextGuardOptions } from '../../src/index.js';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';
import { APP_NAME, USER_ID, fetchLogsTool, runTurn } from './agent-harness.js';

export async function routedRun(model: BaseLlm, options: ContextGuardOptions, turns = 20) {
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger, ...options });
  const agent = new LlmAgent({
    name: 'analyst',
    model,
    instruction: 'You analyse server logs.',
    tools: [fetchLogsTool()],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const errors: string[] = [];
  for (let turn = 0; turn < turns; turn++)
    for (const event of await runTurn(runner, session.id, `Turn ${turn}: fetch the logs and summarise them.`))
      if (event.errorCode) errors.push(event.errorCode);
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
  return { logger, errors, status: guard.status(stored, 'analyst') };
}
