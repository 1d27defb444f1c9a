/**
 * The output of code the model ran, through a real Runner with ADK's `BuiltInCodeExecutor`: Gemini answers with
 * `executableCode` and `codeExecutionResult` parts in the model's own content, and every later call re-sent every
 * output of every completed turn; the guard summarized them instead of masking them (15 summaries in 30 turns of
 * 9 KB outputs on 8k, against 1 for the same output from a function tool: the sixteenth outside trial). Those
 * outputs are now masked like tool results, the code and the model's words kept, and read back with the recall
 * tool from the model's event, which stays as it was.
 */
import { BuiltInCodeExecutor, LlmAgent, type BaseCodeExecutor } from '@google/adk';
import { Language, Outcome, type Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ScriptedLlm, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, USER_ID } from '../support/agent-harness.js';
import { guardedRunner } from '../support/guarded-runner.js';
import { proportionalCounter } from '../support/proportional-counter.js';
import { pairingViolations } from '../support/request-invariants.js';

const WINDOW = 200_000;

/** What the code of turn `turn` prints: rows, and its checksum last. */
const outputOf = (turn: number): string =>
  `row,total\n${Array.from({ length: 400 }, (_, i) => `${i},${i * turn}`).join('\n')}\nchecksum C-${turn}-77`;

const userTextOf = (contents: readonly Content[]): string =>
  [...contents]
    .reverse()
    .find((content) => content.role === 'user' && content.parts?.[0]?.text?.startsWith('```') === false)?.parts?.[0]
    ?.text ?? '';

/** Runs code for each question; asked for the first run's checksum, recalls it, then quotes what it read. */
const analyst: ModelScript = ({ request }) => {
  const contents = request.contents ?? [];
  const recalled = contents.at(-1)?.parts?.find((part) => part.functionResponse?.name === 'recall_history');
  if (recalled) {
    const answer = /checksum C-1-77/.exec(JSON.stringify(recalled.functionResponse?.response))?.[0] ?? 'not found';
    return { content: { role: 'model', parts: [{ text: `It was ${answer}.` }] } };
  }
  const question = userTextOf(contents);
  if (question.includes('first checksum'))
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'recall_history', args: { query: 'checksum C-1' } } }],
      },
    };
  const turn = Number(/Run (\d+)/.exec(question)?.[1] ?? 0);
  return {
    content: {
      role: 'model',
      parts: [
        { executableCode: { language: Language.PYTHON, code: `print(totals(${turn}))` } },
        { codeExecutionResult: { outcome: Outcome.OUTCOME_OK, output: outputOf(turn) } },
        { text: `Run ${turn} done.` },
      ],
    },
  };
};

const MESSAGES = [...Array.from({ length: 8 }, (_, i) => `Run ${i + 1}.`), 'What was the first checksum?'];

/**
 * The analyst streamed: each chunk of other parts is an event of its own, so a run's result comes as a content of
 * nothing else, which ADK sends as a user's text starting with `opening` (`convertCodeExecutionParts`).
 */
const streamedAnalyst =
  (opening: string): ModelScript =>
  (call) => {
    // A response that ends on a run's result is not final: ADK calls the model again, which then answers.
    if (call.request.contents.at(-1)?.parts?.[0]?.text?.startsWith(opening))
      return { content: { role: 'model', parts: [{ text: 'Ran it.' }] } };
    const answer = analyst(call);
    const result = answer.content.parts?.find((part) => part.codeExecutionResult);
    return result ? { content: { role: 'model', parts: [result] } } : answer;
  };

/** Eight runs then the question, through a real Runner with `BuiltInCodeExecutor` (or `executor`, none for null) and the guard. */
async function runAnalyst(
  script: ModelScript,
  executor: BaseCodeExecutor | null = new BuiltInCodeExecutor(),
  messages: readonly string[] = MESSAGES,
) {
  const model = new ScriptedLlm({
    model: 'gemini-2.5-flash',
    window: WINDOW,
    countTokens: proportionalCounter(1.1),
    script,
  });
  const agent = new LlmAgent({
    name: 'analyst',
    model,
    instruction: 'Analyse.',
    ...(executor && { codeExecutor: executor }),
  });
  const { guard, sessionService, runner, sessionId } = await guardedRunner(agent, WINDOW);
  const errors: string[] = [];
  for (const text of messages) {
    const newMessage = { role: 'user', parts: [{ text }] };
    for await (const event of runner.runAsync({ userId: USER_ID, sessionId, newMessage }))
      if (event.errorCode) errors.push(`${event.errorCode}: ${event.errorMessage}`);
  }
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId });
  const events = stored?.events ?? [];
  const answer = [...events].reverse().find((event) => event.author === 'analyst')?.content?.parts?.[0]?.text;
  return { model, errors, events, answer, maskings: guard.status(stored, 'analyst').maskings };
}

describe('the output of code the model ran', () => {
  it('should be masked once its turn is completed, and read back by the recall tool', async () => {
    const { model, errors, events, answer, maskings } = await runAnalyst(analyst);
    expect(errors).toEqual([]);
    expect(model.requests.filter((request) => request.rejected)).toEqual([]);
    expect(model.requests.flatMap((request) => pairingViolations(request.contents))).toEqual([]);
    const outputs = model.requests
      .at(-1)!
      .contents.flatMap((content) => content.parts ?? [])
      .flatMap((part) => part.codeExecutionResult?.output ?? []);
    expect(outputs).toHaveLength(8);
    expect(outputs[0]).toMatch(
      /^Output of the code run \(\d+ characters\) elided to save context; call recall_history/,
    );
    expect(outputs[0]).not.toContain('C-1-77');
    expect(outputs.at(-1)).toBe(outputOf(8));
    expect(answer).toBe('It was checksum C-1-77.');
    const firstRun = events.find((event) => event.content?.parts?.some((part) => part.codeExecutionResult));
    expect(firstRun?.content?.parts?.[1]?.codeExecutionResult?.output).toBe(outputOf(1));
    expect(maskings).toBeGreaterThan(0);
  });

  it("should mask it too where ADK sends it as a user's text, and never take it for the user's message", async () => {
    // Streamed, each chunk of other parts is an event of its own: a content of nothing but the run's result, which
    // ADK sends as "```tool_output\n…\n```" in a user content (`convertCodeExecutionParts`).
    const { model, errors, answer } = await runAnalyst(streamedAnalyst('```tool_output'));
    expect(errors).toEqual([]);
    const last = model.requests.at(-1)!.contents;
    const rendered = last
      .flatMap((content) => content.parts ?? [])
      .map((part) => part.text ?? '')
      .filter((text) => text.startsWith('```tool_output'));
    expect(rendered).toHaveLength(8);
    expect(rendered[0]).toMatch(
      /^```tool_output\nOutput of the code run \(\d+ characters\) elided to save context; call recall_history/,
    );
    for (const text of MESSAGES) expect(last.some((content) => content.parts?.[0]?.text === text)).toBe(true);
    expect(answer).toBe('It was checksum C-1-77.');
  });

  it("should take a user's message in ADK's shape of an output for the user's own when the agent runs no code", async () => {
    // Review 21: ADK writes an output so only for an agent with a code executor; without one, a message pasted
    // exactly as "```tool_output\n…\n```" is the user's, never masked as a code run's output.
    const pastes = Array.from({ length: 8 }, (_, i) => `\`\`\`tool_output\n${outputOf(i + 1)}\n\`\`\``);
    const messages = ['I will paste the runs.', ...pastes, 'Thanks.'];
    const reader: ModelScript = () => ({ content: { role: 'model', parts: [{ text: 'Noted.' }] } });
    const { model, errors } = await runAnalyst(reader, null, messages);
    expect(errors).toEqual([]);
    expect(model.requests).toHaveLength(messages.length);
    const texts = model.requests.map((request) =>
      request.contents.flatMap((content) => content.parts ?? []).map((part) => part.text ?? ''),
    );
    texts.forEach((sent, turn) => expect(sent).toContain(messages[turn]));
    expect(texts.flat().filter((text) => text.includes('Output of the code run'))).toEqual([]);
  });

  it('should read the outputs of an executor with delimiters of its own, and only those', async () => {
    const executor = new BuiltInCodeExecutor();
    executor.executionResultDelimiters = ['<output>\n', '\n</output>'];
    const { model, errors, answer } = await runAnalyst(streamedAnalyst('<output>'), executor);
    expect(errors).toEqual([]);
    const rendered = model.requests
      .at(-1)!
      .contents.flatMap((content) => content.parts ?? [])
      .map((part) => part.text ?? '')
      .filter((text) => text.startsWith('<output>'));
    expect(rendered).toHaveLength(8);
    expect(rendered[0]).toMatch(/^<output>\nOutput of the code run \(\d+ characters\) elided[^]*\n<\/output>$/);
    expect(answer).toBe('It was checksum C-1-77.');
  });

  it("should keep a user's message in ADK's shape of an output the user's, with an executor that streams", async () => {
    // Review 22: with the executor's own delimiters, a pasted message was read as a run's output by its shape and
    // masked in its own turn, on the call after that turn's run. Only a session's own run gives an output now.
    const paste = `\`\`\`tool_output\nMy notes: order ORD-5521 must never be refunded.\n${'x '.repeat(600)}\n\`\`\``;
    const messages = [...MESSAGES.slice(0, 8), paste, ...MESSAGES.slice(8)];
    const { model, errors, answer } = await runAnalyst(streamedAnalyst('```tool_output'), undefined, messages);
    expect(errors).toEqual([]);
    const from = model.requests.findIndex((request) => request.contents.at(-1)?.parts?.[0]?.text === paste);
    expect(from).toBeGreaterThan(0);
    for (const request of model.requests.slice(from))
      expect(request.contents.some((content) => content.parts?.[0]?.text === paste)).toBe(true);
    expect(answer).toBe('It was checksum C-1-77.');
  });
});
