/**
 * Gemini's code execution streamed (SSE) through ADK's own `Gemini` class and stream aggregator (a stand-in API
 * client, no network), with `BuiltInCodeExecutor`: each chunk of other parts becomes an event of its own, so every
 * run's result is a content of nothing else, which ADK sends as a user's text ("```tool_output\n…\n```"). On a
 * 30k window over 30 runs the guard masks those outputs; every request keeps each turn's message as the user's,
 * and the first run's checksum is read back with the recall tool (review 21's run, kept as a test).
 */
import { BuiltInCodeExecutor, LlmAgent, StreamingMode, type LlmRequest } from '@google/adk';
import { Language, Outcome, type Content, type GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { latestUserRequestIndex } from '../../src/content/content-shape.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';
import { proportionalCounter } from '../support/proportional-counter.js';
import { guardedRunner } from '../support/guarded-runner.js';
import { streamingGemini, type StreamedRequest } from '../support/streaming-gemini.js';

const WINDOW = 30_000;
const count = proportionalCounter(1.1);

/** What the code of run `turn` prints: rows, and its checksum last. */
const outputOf = (turn: number): string =>
  `row,total\n${Array.from({ length: 150 }, (_, i) => `${i},${i * turn}`).join('\n')}\nchecksum C-${turn}-77`;

type Chunk = Partial<GenerateContentResponse>;
const chunk = (parts: Content['parts'], finishReason?: string): Chunk => ({
  candidates: [{ content: { role: 'model', parts }, ...(finishReason && { finishReason: finishReason as never }) }],
});

interface Sent {
  readonly contents: Content[];
  readonly message: string;
}

/** Runs code for each message; asked for the first run's checksum, recalls it, then quotes what it read. */
function analystChunks(request: StreamedRequest, message: string, prompt: number): Chunk[] {
  const recalled = request.contents.at(-1)?.parts?.find((part) => part.functionResponse?.name === 'recall_history');
  if (recalled) {
    const found = /checksum C-1-77/.exec(JSON.stringify(recalled.functionResponse?.response))?.[0] ?? 'not found';
    return [chunk([{ text: `It was ${found}.` }], 'STOP')];
  }
  const declared = JSON.stringify(request.config?.tools ?? []).includes('recall_history');
  if (message.includes('first checksum'))
    return declared
      ? [chunk([{ functionCall: { name: 'recall_history', args: { query: 'checksum C-1' } } }], 'STOP')]
      : [chunk([{ text: 'I cannot read it back.' }], 'STOP')];
  const turn = Number(/Run (\d+)/.exec(message)?.[1] ?? 0);
  const usage = { promptTokenCount: prompt, candidatesTokenCount: 5, totalTokenCount: prompt + 5 };
  return [
    chunk([{ executableCode: { language: Language.PYTHON, code: `print(totals(${turn}))` } }]),
    chunk([{ codeExecutionResult: { outcome: Outcome.OUTCOME_OK, output: outputOf(turn) } }]),
    chunk([{ text: `Run ${turn} ` }]),
    { ...chunk([{ text: 'done.' }], 'STOP'), usageMetadata: usage },
  ];
}

describe('code runs streamed through Gemini', () => {
  it("should mask each run's output, keep every message the user's, and read the first output back", async () => {
    const sent: Sent[] = [];
    let message = '';
    const model = streamingGemini((request) => {
      const prompt = count({ contents: request.contents, config: request.config } as LlmRequest);
      // Over the window the provider refuses, as Gemini does.
      if (prompt > WINDOW) throw new Error(`The input token count (${prompt}) exceeds the maximum (${WINDOW}).`);
      sent.push({ contents: structuredClone(request.contents), message });
      return analystChunks(request, message, prompt);
    });
    const agent = new LlmAgent({
      name: 'analyst',
      model,
      instruction: 'Analyse.',
      codeExecutor: new BuiltInCodeExecutor(),
    });
    const { guard, sessionService, runner, sessionId: id } = await guardedRunner(agent, WINDOW);
    const messages = [...Array.from({ length: 30 }, (_, i) => `Run ${i + 1}.`), 'What was the first checksum?'];
    const errors: string[] = [];
    const runConfig = { streamingMode: StreamingMode.SSE };
    for (message of messages)
      for await (const event of runner.runAsync({
        userId: USER_ID,
        sessionId: id,
        newMessage: userMessage(message),
        runConfig,
      }))
        if (event.errorCode) errors.push(`${event.errorCode}: ${event.errorMessage}`);
    expect(errors).toEqual([]);
    for (const { contents, message: turnMessage } of sent) {
      const at = latestUserRequestIndex(contents);
      expect(contents[at]?.parts?.[0]?.text).toBe(turnMessage);
    }
    const texts = sent
      .at(-2)!
      .contents.flatMap((content) => content.parts ?? [])
      .map((part) => part.text ?? '');
    const outputs = texts.filter((text) => text.startsWith('```tool_output'));
    expect(outputs.length).toBeGreaterThan(0);
    expect(outputs.some((text) => text.includes('Output of the code run'))).toBe(true);
    const session = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: id });
    expect(session?.events.at(-1)?.content?.parts?.[0]?.text).toBe('It was checksum C-1-77.');
    expect(guard.status(session, 'analyst').maskings).toBeGreaterThan(0);
  });
});
