/**
 * A record keeper for tests of bursts of numbers on a digit-splitting provider: a tool that returns a turn's record
 * (what `recordOf` gives), a script that fetches one record a turn and notes it, and the agent callbacks the tests
 * put after the guard. Used by test/integration/wait-with-agent-callbacks.test.ts and split-digits-tokenizer.test.ts.
 */
import { FunctionTool, type LlmRequest } from '@google/adk';
import { proseText, type ModelScript } from '../../src/testing/index.js';

/** `fetch_record({ turn })`, answering `{ record: recordOf(turn) }`. */
export function recordTool(recordOf: (turn: number) => string): FunctionTool {
  return new FunctionTool({
    name: 'fetch_record',
    description: 'Fetches the record for a turn.',
    parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } } } as never,
    execute: (input: unknown) => ({ record: recordOf((input as { turn: number }).turn) }),
  });
}

/** Each user message "Turn N: …" asks for record N; each record is noted (with `noteChars` of prose). */
export function recordScript(noteChars = 0): ModelScript {
  return ({ request, index }) => {
    const last = request.contents.at(-1);
    if (last?.parts?.some((part) => part.functionResponse)) {
      const note = noteChars > 0 ? ` ${proseText(noteChars, index)}` : '';
      return { content: { role: 'model', parts: [{ text: `Noted, step ${index}.${note}` }] } };
    }
    const turn = Number(/Turn (\d+)/.exec(JSON.stringify(last))?.[1] ?? 0);
    return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch_record', args: { turn } } }] } };
  };
}

/** An agent's callback that edits the contents in place (a redaction): a retry from the guard's copy would undo it. */
export const redactInPlace = ({ request }: { request: LlmRequest }) => {
  for (const content of request.contents)
    for (const part of content.parts ?? []) if (part.text) part.text = part.text.replace(/step (\d+)/g, 'step #');
  return undefined;
};
