/**
 * The scripted model's most common behaviour: on a user turn it calls one
 * tool, and once the last content carries the tool's result it answers.
 */
import type { FunctionCall } from '@google/genai';
import type { ModelScript, ScriptCall } from '../../src/testing/index.js';

export interface CallThenAnswer {
  /** The call to make while no result is in; `undefined` answers at once. */
  readonly call: (turn: ScriptCall) => FunctionCall | undefined;
  /** The answer's text once the result is in. */
  readonly answer: (turn: ScriptCall) => string;
  /** Answer only after this tool's result (a hand-over's result then starts a call). @default any tool's */
  readonly after?: string;
}

export function callThenAnswer({ call, answer, after }: CallThenAnswer): ModelScript {
  return (turn) => {
    const last = turn.request.contents[turn.request.contents.length - 1];
    const answered =
      last?.parts?.some(
        (part) => part.functionResponse !== undefined && (after === undefined || part.functionResponse.name === after),
      ) ?? false;
    const next = answered ? undefined : call(turn);
    if (next) return { content: { role: 'model', parts: [{ functionCall: next }] } };
    return { content: { role: 'model', parts: [{ text: answer(turn) }] } };
  };
}
