/**
 * The real ADK FunctionTools of a replayed run: one per tool name the run
 * calls, declared with the argument names it was called with, returning the
 * recorded outputs. A call is matched by its name and arguments; the same
 * call made twice gets its recorded outputs in order. Built per run, so no
 * two runs share a queue.
 */
import { FunctionTool } from '@google/adk';
import { Type, type Schema } from '@google/genai';
import type { RecordedRun } from './recorded-run.js';

/** What a tool returns for a call the run never recorded: the replay has diverged. */
export const UNRECORDED_CALL = 'no recorded output for this call';

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export function callKey(name: string, args: unknown): string {
  return `${name}\u0000${stableJson(args ?? {})}`;
}

function schemaOf(value: unknown): Schema {
  if (typeof value === 'number') return { type: Type.NUMBER };
  if (typeof value === 'boolean') return { type: Type.BOOLEAN };
  if (Array.isArray(value)) return { type: Type.ARRAY, items: { type: Type.OBJECT } };
  if (typeof value === 'object' && value !== null) return { type: Type.OBJECT };
  return { type: Type.STRING };
}

export function replayTools(run: RecordedRun): FunctionTool[] {
  const outputs = new Map<string, string[]>();
  const parameters = new Map<string, Record<string, Schema>>();
  for (const turn of run.turns)
    for (const step of turn.steps)
      for (const call of step.calls) {
        const key = callKey(call.name, call.args);
        outputs.set(key, [...(outputs.get(key) ?? []), call.output]);
        const properties = parameters.get(call.name) ?? {};
        for (const [arg, value] of Object.entries(call.args)) properties[arg] ??= schemaOf(value);
        parameters.set(call.name, properties);
      }
  return [...parameters].map(
    ([name, properties]) =>
      new FunctionTool({
        name,
        description: `The ${name} tool of the recorded run.`,
        parameters: { type: Type.OBJECT, properties },
        execute: (input: unknown) => outputs.get(callKey(name, input))?.shift() ?? UNRECORDED_CALL,
      }),
  );
}
