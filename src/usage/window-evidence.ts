/**
 * What a window chosen below the `contextWindow` option rests on, as the guard's warning names it. Pure.
 */
import type { WindowDecision } from './learned-window.js';

/** What a decided window below the `contextWindow` option rests on, as its warning says it. */
export function windowEvidence(decision: Pick<WindowDecision, 'window' | 'bounded' | 'stateOnly'>): string {
  if (decision.bounded)
    return `a request it rejected as too long in this session (~${decision.window} by the guard's measure)`;
  // A value in state is checked for its range, not for who wrote it: a tool can write it (the fifty-eighth trial).
  if (decision.stateOnly)
    return `the maximum stored in a session's state as a provider's statement (${decision.window}; the guard checks its range, not who wrote it; said once per agent and model)`;
  return `the maximum the provider stated (${decision.window})`;
}
