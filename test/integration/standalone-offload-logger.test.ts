/**
 * `withArtifactOffload` on its own, as docs/truncation.md shows it, with a logger of the user's as its second
 * argument. Review 32: the argument was read as a function returning the logger, so a logger object made every
 * cut tool result an error event (`logTo is not a function`) and the model never got the result.
 */
import { FunctionTool, InMemoryArtifactService, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuardConfigError, createToolOutputTruncator, withArtifactOffload } from '../../src/index.js';
import { CapturingLogger, ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { APP_NAME, runTurn, startSession } from '../support/agent-harness.js';

const BIG = Array.from({ length: 2_000 }, (_, row) => `row ${row}: status=ok latency=${row % 97}ms`).join('\n');

describe('withArtifactOffload with a logger object', () => {
  it('should cut and store a large result and hand the model the cut result with its handle', async () => {
    const logger = new CapturingLogger();
    const model = new ScriptedLlm({
      window: 100_000,
      countTokens: ratioTokenCounter(1),
      script: callThenAnswer({ call: () => ({ name: 'fetch_big', args: {} }), answer: () => 'Done.' }),
    });
    const agent = new LlmAgent({
      name: 'worker',
      model,
      instruction: 'You read logs.',
      tools: [
        new FunctionTool({
          name: 'fetch_big',
          description: 'Returns a long log.',
          parameters: { type: 'OBJECT', properties: {} } as never,
          execute: () => ({ output: BIG }),
        }),
      ],
      afterToolCallback: withArtifactOffload(createToolOutputTruncator(), logger),
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({
      appName: APP_NAME,
      agent,
      sessionService,
      artifactService: new InMemoryArtifactService(),
    });
    const session = await startSession(sessionService);
    const events = await runTurn(runner, session.id, 'Read the log.');

    expect(events.filter((event) => event.errorCode !== undefined)).toEqual([]);
    const result = events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionResponse?.name === 'fetch_big')?.functionResponse?.response;
    expect(JSON.stringify(result).length).toBeLessThan(BIG.length);
    expect(result).toHaveProperty('full_result_artifact');
  });

  it('should refuse a second argument that is neither a logger nor a function when it is made', () => {
    expect(() => withArtifactOffload(createToolOutputTruncator(), 5 as never)).toThrow(ContextGuardConfigError);
    expect(() => withArtifactOffload(createToolOutputTruncator(), { warn: () => undefined } as never)).toThrow(
      /^withArtifactOffload\(\) option 'logger' must be a logger with debug and warn methods/,
    );
    expect(() => withArtifactOffload(createToolOutputTruncator(), undefined, { artifactTimeout: 1 } as never)).toThrow(
      /did you mean 'artifactTimeoutMs'/,
    );
  });
});
