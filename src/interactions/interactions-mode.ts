/**
 * Gemini's Interactions API (`new Gemini({ useInteractionsApi: true })` in ADK 2.0.0): the history
 * lives on Google's side as a chain of interactions, and ADK sends only the latest user turn with
 * `previousInteractionId`. Reducing `contents` then changes nothing the server holds: only starting
 * a fresh chain does (docs/design.md, "Gemini's Interactions API").
 */

/** What of a request tells the mode: ADK's `LlmRequest` has this field. */
interface InteractionsRequest {
  readonly previousInteractionId?: string | undefined;
}

/** What of a model tells the mode: ADK's `Gemini` has this field. */
export interface InteractionsModel {
  readonly useInteractionsApi?: unknown;
}

/** How a call in Interactions mode stands towards the server-side chain (plain data for the core). */
export interface InteractionsCall {
  /** True when the request continues a chain (`previousInteractionId` set): ADK sends only the latest user turn. */
  readonly chained: boolean;
}

/**
 * True when the request goes through the Interactions API: it continues a chain, or its model uses
 * the API (the first call of a chain has no `previousInteractionId` yet). Other parts of a request
 * (a budget line, masking for cost) are sent into the chain for good in this mode.
 */
export function interactionsMode(request: InteractionsRequest, model?: InteractionsModel): boolean {
  return isChained(request) || model?.useInteractionsApi === true;
}

/** The core's view of the call, or undefined outside Interactions mode. */
export function interactionsCall(
  request: InteractionsRequest,
  model?: InteractionsModel,
): InteractionsCall | undefined {
  return interactionsMode(request, model) ? { chained: isChained(request) } : undefined;
}

function isChained(request: InteractionsRequest): boolean {
  return typeof request.previousInteractionId === 'string' && request.previousInteractionId !== '';
}
