/**
 * A `RoutedLlm` given its own `modelName` does not list its models in its name (estimate/routed-model.ts reads
 * them from the name ADK gives one otherwise): the name it would have had, read from the model the agent calls, so
 * that its window is still the smallest of its models' (the ninth outside trial's router, renamed).
 */
import { isLlmAgent, RoutedLlm, type BaseAgent } from '@google/adk';
import type { ModelPrice } from '../../cost/price-table.js';
import { routedMembers } from '../../estimate/routed-model.js';

/** By the model object: `null` when it is not a renamed `RoutedLlm`. */
const listed = new WeakMap<object, string | null>();

/**
 * The model `agent` calls as configured: its own, else its nearest ancestor's (as ADK's `canonicalModel` finds it);
 * `model`, not `canonicalModel`, is read: ADK builds a new model object on every access of the latter.
 */
export function configuredModel(agent: BaseAgent | undefined): unknown {
  let owner = agent;
  while (owner && !(isLlmAgent(owner) && owner.model)) owner = owner.parentAgent;
  return owner && isLlmAgent(owner) ? owner.model : (agent as { model?: unknown } | undefined)?.model;
}

/** ADK's listing name of the renamed `RoutedLlm` `agent` calls (its own or an ancestor's model); else undefined. */
export function listedRoutedName(agent: BaseAgent | undefined): string | undefined {
  return listedNameOf(configuredModel(agent));
}

/**
 * A model's price by name as the agent's calls are priced: for a renamed `RoutedLlm` with no price of its own, its
 * models' (one price for the bill and for the ratios the masking for cost weighs).
 */
export function agentModelPrice(
  agent: BaseAgent | undefined,
  priceOf: (model: string | undefined) => ModelPrice | undefined,
): (model: string | undefined) => ModelPrice | undefined {
  return (model) => priceOf(model) ?? priceOf(listedRoutedName(agent));
}

/**
 * A summarizer's name and the name its calls are priced by: its own, else (a renamed `RoutedLlm` with no price of its
 * own: `routedName`, ADK's listing of its models) the listing.
 */
export function summarizerNames(
  name: string | undefined,
  routedName: string | undefined,
  priceOf: (model: string | undefined) => ModelPrice | undefined,
): { readonly summarizerName: string | undefined; readonly summarizerPricedAs: string | undefined } {
  const pricedAs = routedName !== undefined && priceOf(name) === undefined ? routedName : name;
  return { summarizerName: name, summarizerPricedAs: pricedAs };
}

/** ADK's listing name of `model` when it is a renamed `RoutedLlm` (an agent's or a summarizer's); else undefined. */
export function listedNameOf(model: unknown): string | undefined {
  if (typeof model !== 'object' || model === null) return undefined;
  let name = listed.get(model);
  if (name === undefined) listed.set(model, (name = listingOf(model)));
  return name ?? undefined;
}

/** A `RoutedLlm`'s models by key, or undefined when the record is not there. */
export function routedModelsOf(router: RoutedLlm): Readonly<Record<string, unknown>> | undefined {
  // `models` is private in ADK's types; the constructor keeps the record under that name.
  const models: unknown = (router as unknown as { models?: unknown }).models;
  return typeof models === 'object' && models !== null ? (models as Record<string, unknown>) : undefined;
}

function listingOf(model: object): string | null {
  if (!(model instanceof RoutedLlm) || routedMembers(model.model)) return null;
  const models = routedModelsOf(model);
  if (models === undefined) return null;
  const entries = Object.entries(models).map(([key, member]) => {
    const name = typeof member === 'object' && member !== null ? (member as { model?: unknown }).model : undefined;
    return typeof name === 'string' ? `${key} (${name})` : undefined;
  });
  if (entries.length === 0 || entries.includes(undefined)) return null;
  const name = `RoutedLlm[${entries.join(', ')}]`;
  return routedMembers(name) ? name : null;
}
