/**
 * The real ADK FunctionTools a scenario's agents carry.
 *
 * - `fetch_data` returns a payload of the size and shape the scripted model
 *   asks for (the model passes them as arguments, like a real model choosing
 *   what to fetch); ADK runs it, wraps its result in a function response and
 *   merges parallel responses into one content.
 * - Declaration-only tools make the request carry many tool schemas, as agents
 *   with large toolboxes do; the model never calls them.
 */
import { FunctionTool } from '@google/adk';
import { Type, type Schema } from '@google/genai';
import { proseText, toolResult } from '../src/testing/index.js';
import type { PayloadShape } from './scenario-types.js';

export const FETCH_TOOL_NAME = 'fetch_data';

const SHAPES: readonly PayloadShape[] = ['json', 'logs', 'code', 'prose', 'image', 'tiny'];

/** Payloads are reused across strategies of one run; strings are immutable, so sharing is safe. */
const payloadMemo = new Map<string, Record<string, unknown>>();
const MEMO_LIMIT = 512;

function memoizedResult(shape: PayloadShape, size: number, seed: number): Record<string, unknown> {
  const key = `${shape}:${size}:${seed}`;
  let result = payloadMemo.get(key);
  if (!result) {
    result = toolResult(shape, size, seed);
    if (payloadMemo.size >= MEMO_LIMIT) {
      const oldest = payloadMemo.keys().next().value;
      if (oldest !== undefined) payloadMemo.delete(oldest);
    }
    payloadMemo.set(key, result);
  }
  // ADK keeps the object in the event; hand out a shallow copy so no two events share one.
  return { ...result };
}

function isShape(value: unknown): value is PayloadShape {
  return typeof value === 'string' && (SHAPES as readonly string[]).includes(value);
}

const FETCH_PARAMETERS: Schema = {
  type: Type.OBJECT,
  properties: {
    size: { type: Type.INTEGER, description: 'Approximate characters of the result.' },
    shape: { type: Type.STRING, enum: [...SHAPES], description: 'Kind of data to return.' },
    seed: { type: Type.INTEGER, description: 'Which record set to return.' },
  },
  required: ['size', 'shape'],
};

export function fetchDataTool(): FunctionTool {
  return new FunctionTool({
    name: FETCH_TOOL_NAME,
    description: 'Fetches records, logs, source files, documents or screenshots from the operations backend.',
    parameters: FETCH_PARAMETERS,
    execute: (input: unknown) => {
      const args = (input ?? {}) as { size?: unknown; shape?: unknown; seed?: unknown };
      const size = typeof args.size === 'number' && args.size >= 0 ? Math.floor(args.size) : 100;
      const shape = isShape(args.shape) ? args.shape : 'logs';
      const seed = typeof args.seed === 'number' ? Math.floor(args.seed) : 1;
      return memoizedResult(shape, size, seed);
    },
  });
}

/** `count` tools that are declared but never called, each with a ~1,200-character declaration. */
export function declarationOnlyTools(count: number): FunctionTool[] {
  const tools: FunctionTool[] = [];
  for (let i = 0; i < count; i++) {
    const parameters: Schema = {
      type: Type.OBJECT,
      properties: {
        resource_id: { type: Type.STRING, description: `Identifier of the resource. ${proseText(160, i * 3 + 1)}` },
        mode: { type: Type.STRING, enum: ['dry_run', 'apply', 'verify'], description: 'How to run the operation.' },
        limit: { type: Type.INTEGER, description: `Upper bound on affected items. ${proseText(120, i * 3 + 2)}` },
        options: {
          type: Type.OBJECT,
          properties: {
            region: { type: Type.STRING, description: 'Region code.' },
            notify: { type: Type.BOOLEAN, description: 'Whether to page the owner.' },
          },
        },
      },
      required: ['resource_id'],
    };
    tools.push(
      new FunctionTool({
        name: `ops_action_${String(i).padStart(3, '0')}`,
        description: `Operation ${i} of the admin toolbox. ${proseText(520, i * 3 + 3)}`,
        parameters,
        execute: () => ({ error: 'not used in this scenario' }),
      }),
    );
  }
  return tools;
}
