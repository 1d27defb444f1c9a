/**
 * The model a response came from, for pricing: the agent's configured model
 * name (its nearest ancestor's when it has none: ADK's `canonicalModel`), else
 * the `modelVersion` the provider reported.
 */
import { isLlmAgent, type BaseAgent, type Context, type LlmResponse } from '@google/adk';

export function modelNameOf(context: Context, response: LlmResponse): string | undefined {
  const model = configuredModel(context.invocationContext.agent);
  if (typeof model === 'string' && model.length > 0) return model;
  if (typeof model === 'object' && model !== null && typeof (model as { model?: unknown }).model === 'string')
    return (model as { model: string }).model;
  return typeof response.modelVersion === 'string' ? response.modelVersion : undefined;
}

/** Read `model`, not `canonicalModel`: ADK builds a new model object on every access of the latter. */
function configuredModel(agent: BaseAgent | undefined): unknown {
  let owner = agent;
  while (owner && !(isLlmAgent(owner) && owner.model)) owner = owner.parentAgent;
  return owner && isLlmAgent(owner) ? owner.model : (agent as { model?: unknown } | undefined)?.model;
}
