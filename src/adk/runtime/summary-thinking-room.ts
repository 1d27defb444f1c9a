/**
 * The thinking allowance of a summary request, by the model object the request goes to: ADK's `Gemini` class (a
 * tuned Vertex endpoint is not named Gemini), a model named Gemini, and a `RoutedLlm` only as far as all of its models
 * are (the least of their allowances: a request routed to a local model, whose server checks input plus `max_tokens`
 * against its window, must not carry it; review 56).
 */
import { Gemini, RoutedLlm, type BaseLlm } from '@google/adk';
import type { ThinkingConfig } from '@google/genai';
import { isGeminiName, thinkingAllowance } from '../../summary/thinking-allowance.js';
import { routedModelsOf } from './listed-routed-name.js';

/** Routers nested deeper than this are given no allowance (a cycle of routers). */
const MAX_DEPTH = 4;

export function thinkingRoomOf(llm: BaseLlm, thinking: ThinkingConfig | undefined, depth = 0): number {
  if (llm instanceof RoutedLlm) {
    const models = routedModelsOf(llm);
    if (depth >= MAX_DEPTH || models === undefined) return 0;
    const members = Object.values(models);
    if (members.length === 0 || !members.every(isModel)) return 0;
    return Math.min(...members.map((member) => thinkingRoomOf(member, thinking, depth + 1)));
  }
  return thinkingAllowance(llm.model, thinking, llm instanceof Gemini || isGeminiName(llm.model));
}

function isModel(value: unknown): value is BaseLlm {
  return typeof value === 'object' && value !== null && typeof (value as { model?: unknown }).model === 'string';
}
