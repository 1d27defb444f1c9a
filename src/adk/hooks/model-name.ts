/**
 * The model a response came from, for pricing: the agent's configured model
 * name, else the `modelVersion` the provider reported.
 */
import type { Context, LlmResponse } from '@google/adk';

export function modelNameOf(context: Context, response: LlmResponse): string | undefined {
  // Read `model`, not `canonicalModel`: ADK builds a new model object on every access of the latter.
  const model: unknown = (context.invocationContext.agent as { model?: unknown }).model;
  if (typeof model === 'string' && model.length > 0) return model;
  if (typeof model === 'object' && model !== null && typeof (model as { model?: unknown }).model === 'string')
    return (model as { model: string }).model;
  return typeof response.modelVersion === 'string' ? response.modelVersion : undefined;
}
