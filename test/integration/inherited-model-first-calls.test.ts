/**
 * A transfer to a SequentialAgent whose agents inherit the root's model (ADK's `canonicalModel`): the checker's
 * first call made a summary of the 63 tokens of the transfer's call and answer, and discarded it (review 7; on
 * 6959c12 two were made and discarded). A first summary must cover more than the smallest summary and its framing.
 */
import { InMemorySessionService, LlmAgent, LogLevel, Runner, SequentialAgent, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { proseOfShare } from '../support/prose-of-share.js';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ScriptedSummarizerLlm } from '../../src/testing/index.js';
import { proportionalCounter } from '../support/proportional-counter.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;

const documentOf = (share: number): string => proseOfShare(WINDOW * share);

describe('agents that inherit their model', () => {
  it('should not make and discard a summary on the first calls of agents that inherit the model after a transfer', async () => {
    const model = new ScriptedLlm({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      countTokens: proportionalCounter(1.2),
      script: ({ index, request }) => {
        const system = JSON.stringify(request.config?.systemInstruction ?? '');
        if (system.includes('Route.'))
          return {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: 'pipeline' } } }],
            },
          };
        return { content: { role: 'model', parts: [{ text: `Noted ${index}.` }] } };
      },
    });
    // The pipeline's agents name no model: ADK gives them the root's.
    const pipeline = new SequentialAgent({
      name: 'pipeline',
      description: 'Reads and checks logs.',
      subAgents: [
        new LlmAgent({ name: 'reader', instruction: 'Read the log.' }),
        new LlmAgent({ name: 'checker', instruction: 'Check the log.' }),
      ],
    });
    const root = new LlmAgent({ name: 'router', model, instruction: 'Route.', subAgents: [pipeline] });
    const logger = new CapturingLogger();
    const summarizer = new ScriptedSummarizerLlm();
    const guard = new ContextGuard({ contextWindow: WINDOW, logger, summarizer, prepareTurnsAhead: 0 });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'inherit', agent: root, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: 'inherit', userId: 'u' });
    const errors: string[] = [];
    const newMessage = { role: 'user', parts: [{ text: documentOf(0.85) }] };
    for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage }))
      if (event.errorCode) errors.push(`${event.errorCode}`);
    expect(errors).toEqual([]);
    // A summary made on the pipeline's first calls cannot make them smaller (the user's message is all they hold).
    expect({
      summarizerCalls: summarizer.calls.length,
      discarded: logger.matching(/would not make the request smaller/).length,
    }).toEqual({ summarizerCalls: 0, discarded: 0 });
  });
});
