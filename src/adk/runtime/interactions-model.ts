/**
 * The model an agent calls, read for the Interactions mode (src/interactions/): ADK's interactions
 * request processor reads `useInteractionsApi` on the agent's canonical model. Read from the agent
 * that owns the model (itself or the nearest ancestor it inherits from) without resolving a model
 * named by a string: ADK's registry makes a `Gemini` without the Interactions API for a name.
 */
import { isLlmAgent, type BaseAgent } from '@google/adk';
import type { InteractionsModel } from '../../interactions/interactions-mode.js';

export function interactionsModelOf(agent: BaseAgent | undefined): InteractionsModel | undefined {
  let owner = agent;
  while (owner && !(isLlmAgent(owner) && owner.model)) owner = owner.parentAgent;
  const model = owner && isLlmAgent(owner) ? owner.model : undefined;
  return typeof model === 'object' && model !== null ? (model as InteractionsModel) : undefined;
}
