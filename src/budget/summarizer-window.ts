/**
 * The one rule for the summarizer's window, pure.
 */

/**
 * `declared`: the policy's `summarizerContextWindow`; `own`: the summarizer's own window (its
 * `contextWindow` or its model's); `agentWindow`: the window of the request. Undeclared, the
 * summarizer's window is not taken above the agent's (which may have been learned smaller).
 */
export function summarizerWindowFor(
  declared: number | undefined,
  own: number | undefined,
  agentWindow: number,
): number {
  return declared ?? Math.min(own ?? agentWindow, agentWindow);
}
