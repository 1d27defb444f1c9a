/**
 * The model a response came from, for pricing: the agent's configured model
 * name (its nearest ancestor's when it has none: ADK's `canonicalModel`), else
 * the `modelVersion` the provider reported.
 */
import type { Context, LlmResponse } from '@google/adk';
import { configuredModel } from '../runtime/listed-routed-name.js';

export function modelNameOf(context: Context, response: LlmResponse): string | undefined {
  const model = configuredModel(context.invocationContext.agent);
  if (typeof model === 'string' && model.length > 0) return model;
  if (typeof model === 'object' && model !== null && typeof (model as { model?: unknown }).model === 'string')
    return (model as { model: string }).model;
  return typeof response.modelVersion === 'string' ? response.modelVersion : undefined;
}
