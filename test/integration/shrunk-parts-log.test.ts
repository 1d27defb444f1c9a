/**
 * A request made to fit by cutting its largest parts head and tail says so (the fourteenth outside trial): the
 * arguments of a model's own `write_file` call (30,000 characters on an 8k window) were sent cut with only the
 * masking's line in the log, whose figures then took in the cut's effect too.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import {
  CapturingLogger,
  codeText,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
} from '../../src/testing/index.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';

const WINDOW = 8_000;

describe('a request whose largest part is cut to fit', () => {
  it("should log that parts were cut, when the model's own call is too large to send whole", async () => {
    const model = new ScriptedLlm({
      window: WINDOW,
      countTokens: ratioTokenCounter(1.2),
      script: ({ request }) =>
        request.contents.at(-1)?.parts?.some((part) => part.functionResponse)
          ? { content: { role: 'model', parts: [{ text: 'Written.' }] } }
          : {
              content: {
                role: 'model',
                parts: [{ functionCall: { name: 'write_file', args: { path: 'a.ts', text: codeText(30_000, 7) } } }],
              },
            },
    });
    const writeFile = new FunctionTool({
      name: 'write_file',
      description: 'Writes a file.',
      parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' }, text: { type: 'STRING' } } } as never,
      execute: () => ({ ok: true }),
    });
    const agent = new LlmAgent({ name: 'writer', model, instruction: 'You write files.', tools: [writeFile] });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer(), logger });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const newMessage = userMessage('Write the module.');
    for await (const event of runner.runAsync({ userId: USER_ID, sessionId: id, newMessage }))
      expect(event.errorCode).toBeUndefined();
    const sent = JSON.stringify(model.requests.at(-1)?.contents);
    expect(sent).toMatch(/omitted \d+ of \d+ characters/);
    expect(logger.matching('were sent cut head and tail')).not.toEqual([]);
  });

  it("should not say tool results or calls were cut when only the user's message was, on any call of the turn", async () => {
    let step = 0;
    const model = new ScriptedLlm({
      window: WINDOW,
      countTokens: ratioTokenCounter(1.2),
      script: () =>
        (step += 1) <= 8
          ? { content: { role: 'model', parts: [{ functionCall: { name: 'probe', args: { n: step } } }] } }
          : { content: { role: 'model', parts: [{ text: 'Done.' }] } },
    });
    const probe = new FunctionTool({
      name: 'probe',
      description: 'Probes.',
      parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER' } } } as never,
      execute: (input: unknown) => ({ ok: (input as { n: number }).n }),
    });
    const agent = new LlmAgent({ name: 'writer', model, instruction: 'You review code.', tools: [probe] });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer(), logger });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const newMessage = userMessage(`Please review: ${codeText(40_000, 3)}`);
    for await (const event of runner.runAsync({ userId: USER_ID, sessionId: id, newMessage }))
      expect(event.errorCode).toBeUndefined();
    expect(model.requests).toHaveLength(9);
    expect(logger.matching("the turn's user content")).toHaveLength(1);
    expect(logger.matching('were sent cut head and tail')).toEqual([]);
  });
});
