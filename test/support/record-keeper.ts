/**
 * A tool a turn's script calls once a turn: `fetch_record({ turn })` by default, answering `{ [field]: valueOf(turn) }`,
 * and the script that asks for turn N's value when the user's message says "Turn N: …" and notes each answer. With
 * the agent callback the digit-burst tests put after the guard. Used by the integration tests of masking waits and of
 * `splitDigitsTokenizer`.
 */
import { FunctionTool, type LlmRequest } from '@google/adk';
import { proseText, type ModelScript } from '../../src/testing/index.js';

interface TurnTool {
  readonly name?: string;
  readonly description?: string;
  /** The key of the value in the tool's answer. @default 'record' */
  readonly field?: string;
}

/** `name({ turn })`, answering `{ [field]: valueOf(turn) }`. */
export function recordTool(valueOf: (turn: number) => string, tool: TurnTool = {}): FunctionTool {
  return new FunctionTool({
    name: tool.name ?? 'fetch_record',
    description: tool.description ?? 'Fetches the record for a turn.',
    parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } } } as never,
    execute: (input: unknown) => ({ [tool.field ?? 'record']: valueOf((input as { turn: number }).turn) }),
  });
}

interface TurnScript {
  /** The tool called once a turn. @default 'fetch_record' */
  readonly tool?: string;
  /** Each answer's note, given the call's index. @default `Noted, step N.` and `noteChars` of prose */
  readonly note?: (index: number) => string;
  readonly noteChars?: number;
}

/** Each user message "Turn N: …" calls the tool for turn N; each answer is noted. */
export function recordScript(options: TurnScript = {}): ModelScript {
  const tool = options.tool ?? 'fetch_record';
  const noteChars = options.noteChars ?? 0;
  const note =
    options.note ??
    ((index: number) => `Noted, step ${index}.${noteChars > 0 ? ` ${proseText(noteChars, index)}` : ''}`);
  return ({ request, index }) => {
    const last = request.contents.at(-1);
    if (last?.parts?.some((part) => part.functionResponse))
      return { content: { role: 'model', parts: [{ text: note(index) }] } };
    const turn = Number(/Turn (\d+)/.exec(JSON.stringify(last))?.[1] ?? 0);
    return { content: { role: 'model', parts: [{ functionCall: { name: tool, args: { turn } } }] } };
  };
}

/** An agent's callback that edits the contents in place (a redaction): a retry from the guard's copy would undo it. */
export const redactInPlace = ({ request }: { request: LlmRequest }) => {
  for (const content of request.contents)
    for (const part of content.parts ?? []) if (part.text) part.text = part.text.replace(/step (\d+)/g, 'step #');
  return undefined;
};
