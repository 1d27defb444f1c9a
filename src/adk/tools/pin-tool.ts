/**
 * `pin_context`: a small ADK tool the model can call to pin a fact (an
 * identifier, a constraint, the task) so that it is carried verbatim in every
 * later request and never summarized away. The pin is written to session
 * state with the tool's response event, so it persists with the session.
 */
import { FunctionTool, type Context, type State } from '@google/adk';
import { checkFactoryOptions } from '../../validation/factory-options.js';
import type { AddPinResult, PinSource } from '../../memory/pins.js';

export const PIN_TOOL_NAME = 'pin_context';
/** On the tool, so the budget line finds it under any name it was given (two copies of the package share it). */
const PIN_TOOL_BRAND = Symbol.for('adk-context-guard.pinTool');

/** Whether `tool` is a `pinContextTool()`. */
export function isPinContextTool(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && PIN_TOOL_BRAND in tool;
}

/** What the tool needs of the guard: adding a pin under the agent's cap (`ContextGuard.pinInState`). */
export interface PinWriter {
  pinInState(state: State, agentName: string, text: string, source: PinSource): AddPinResult;
}

/** The pin tool, bound to a guard (for its per-agent caps). */
export function pinContextTool(guard: PinWriter, options: { readonly name?: string } = {}): FunctionTool {
  if (typeof (guard as Partial<PinWriter> | undefined)?.pinInState !== 'function')
    throw new TypeError(
      'ContextGuard: pinContextTool() expects the guard (a ContextGuard, or anything with pinInState).',
    );
  checkFactoryOptions('pinContextTool()', options, { name: 'toolName' });
  const tool = new FunctionTool({
    name: options.name ?? PIN_TOOL_NAME,
    description:
      'Pin a short fact that must stay visible for the rest of the conversation (an identifier, a constraint, a decision). ' +
      'Pinned facts are never summarized away. Use sparingly: pins share a small budget.',
    parameters: {
      type: 'OBJECT',
      properties: { fact: { type: 'STRING', description: 'The fact to keep, verbatim and short.' } },
      required: ['fact'],
    } as never,
    execute: (input: unknown, context?: Context) => {
      const fact = (input as { fact?: unknown } | undefined)?.fact;
      if (typeof fact !== 'string' || fact.trim().length === 0) return { error: 'Give the fact to pin.' };
      if (!context) return { error: 'pin_context needs a tool context.' };
      const result = guard.pinInState(context.state, context.agentName, fact.trim(), 'model');
      return result.ok
        ? { pinned: true, id: result.pin.id, pinnedTokens: result.tokens }
        : { pinned: false, error: result.reason };
    },
  });
  Object.defineProperty(tool, PIN_TOOL_BRAND, { value: true });
  return tool;
}
