/**
 * The agent's model, wrapped so that a request the provider rejects as too long can be compacted
 * and sent again inside the same model call (docs/design.md, "A rejected call is retried").
 *
 * ADK 2.0.0 yields an `onModelErrorCallback`'s answer without its post-processing (no tool runs,
 * no `afterModelCallback`), so the retry happens below ADK, in `generateContentAsync`: ADK then
 * post-processes the retried answer like any other. The wrapper is a `Proxy` of the model that
 * replaces only `generateContentAsync`; everything ADK checks reads through to the model itself
 * (`instanceof Gemini`, the brands `isBaseLlm` and `isGemini` test, `model`, `useInteractionsApi`).
 * It retries only a request the before-model guard offered a retry for (`offerRetry`), at most
 * once, and only when the rejection came before any answer (a thrown error, or a first answer that
 * carries an `errorCode`, as a failed interaction of Gemini's Interactions API does); otherwise it yields what the model
 * yields and throws what it throws, untouched.
 */
import {
  isBaseLlm,
  isLlmAgent,
  LLMRegistry,
  type BaseAgent,
  type BaseLlm,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import type { Content, Part, ToolUnion } from '@google/genai';
import { restoreLooked, sentContents, type SentContents } from '../../estimate/sent-contents.js';
import { StreamedRepeats } from '../../interactions/streamed-repeats.js';

/** Given the rejection of an offered request: true when the request was compacted, to be sent again. */
export type RetryRejected = (error: unknown) => Promise<boolean>;

/** On `globalThis`, so two copies of the package share the offers and recognise each other's wrapper. */
const OFFERS_KEY = Symbol.for('adk-context-guard.retryOffers');
const WRAPPED = Symbol.for('adk-context-guard.retryingModel');

function offers(): WeakMap<LlmRequest, RetryRejected> {
  const holder = globalThis as { [OFFERS_KEY]?: WeakMap<LlmRequest, RetryRejected> };
  return (holder[OFFERS_KEY] ??= new WeakMap());
}

/** Offers one retry of `request`, should its model call be rejected. */
export function offerRetry(request: LlmRequest, retry: RetryRejected): void {
  offers().set(request, retry);
}

/** The offer of `request`, once: a retried request is never retried again. */
function takeOffer(request: LlmRequest): RetryRejected | undefined {
  const retry = offers().get(request);
  offers().delete(request);
  return retry;
}

function isRetrying(model: BaseLlm): boolean {
  return (model as unknown as Record<symbol, unknown>)[WRAPPED] === true;
}

/** A list and its elements then: put back in place, the same array object. */
interface ListThen<T> {
  readonly list: T[];
  readonly items: readonly T[];
}

const listThen = <T>(list: T[] | undefined): ListThen<T> | undefined => list && { list, items: [...list] };

function putBack<T>(then: ListThen<T> | undefined): T[] | undefined {
  if (!then) return undefined;
  then.list.length = 0;
  then.list.push(...then.items);
  return then.list;
}

/** The request as the model was handed it: what a model that edits its request did is undone before a retry. */
interface Handed {
  readonly contents: ListThen<Content>;
  readonly sent: SentContents;
  readonly systemInstruction: unknown;
  /** The system instruction's parts, when it is a content (edited in place as the contents are). */
  readonly instructionParts: ListThen<Part> | undefined;
  readonly tools: ListThen<ToolUnion> | undefined;
}

function handed(request: LlmRequest): Handed | undefined {
  if (!offers().has(request)) return undefined;
  const { systemInstruction, tools } = request.config ?? {};
  const parts =
    typeof systemInstruction === 'object' && 'parts' in systemInstruction ? systemInstruction.parts : undefined;
  return {
    contents: { list: request.contents, items: [...request.contents] },
    sent: sentContents(request.contents),
    systemInstruction,
    instructionParts: listThen(parts),
    tools: listThen(tools),
  };
}

/**
 * The request back as the model was handed it, before the retry reads what callbacks did to it (trial 51: a wrapper
 * that appended to the user's text was taken for a callback's edit and the retry refused; one that added a content
 * had it kept by the retry and added again by the model: twice in every retried request). The contents array, the
 * system instruction and the tools list are put back in place (a tool pushed into the list, as ADK's `appendTools`
 * does, went out twice: review 46); of the contents, the first and last few as looked at (estimate/sent-contents.ts):
 * an edit in place deeper in the history is not undone, and is made again by the model.
 */
function undoModelEdits(request: LlmRequest, handedTo: Handed | undefined): void {
  if (!handedTo) return;
  try {
    putBackHanded(request, handedTo);
  } catch {
    // A frozen list, say: the retry reads the request as the model left it, as before (it may decline).
  }
}

function putBackHanded(request: LlmRequest, handedTo: Handed): void {
  request.contents = putBack(handedTo.contents) ?? request.contents;
  restoreLooked(handedTo.sent);
  if (!request.config) return;
  putBack(handedTo.instructionParts);
  request.config.systemInstruction = handedTo.systemInstruction as typeof request.config.systemInstruction;
  const tools = putBack(handedTo.tools);
  if (tools) request.config.tools = tools;
  else delete request.config.tools;
}

async function* generateRetrying(
  model: BaseLlm,
  request: LlmRequest,
  stream: boolean | undefined,
  abortSignal: AbortSignal | undefined,
): AsyncGenerator<LlmResponse, void> {
  let answered = false;
  let failed = false;
  const handedTo = handed(request);
  try {
    for await (const response of answersOf(model, request, stream, abortSignal)) {
      // A failed interaction (Gemini's Interactions API) is an answer with `errorCode`, not a throw.
      failed = !answered && !!response.errorCode && (await retryFailed(request, response, abortSignal, handedTo));
      if (failed) break;
      answered = true;
      yield response;
    }
    if (!failed) return;
  } catch (error) {
    // After a response was yielded, ADK has already acted on it: the call cannot be taken back.
    const retry = answered || abortSignal?.aborted ? undefined : takeOffer(request);
    if (retry) undoModelEdits(request, handedTo);
    if (!retry || !(await retry(error))) throw error;
  }
  yield* answersOf(model, request, stream, abortSignal);
}

/**
 * The model's answers as ADK should act on them: a streamed call's through `StreamedRepeats`
 * (interactions/streamed-repeats.ts), which hands on what ADK's streamed Interactions path yields more than once
 * (a tool ran once for each copy) a single time; every other model's answers pass through it unchanged.
 */
async function* answersOf(
  model: BaseLlm,
  request: LlmRequest,
  stream: boolean | undefined,
  abortSignal: AbortSignal | undefined,
): AsyncGenerator<LlmResponse, void> {
  const answers = model.generateContentAsync(request, stream, abortSignal);
  if (!stream) return yield* answers;
  const repeats = new StreamedRepeats<LlmResponse>();
  try {
    for await (const answer of answers) yield* repeats.take(answer);
  } catch (error) {
    // A call held when the stream broke is handed on, as ADK would have run it before the error (review 48).
    yield* repeats.end();
    throw error;
  }
  yield* repeats.end();
}

/** The offered retry of a request answered with an error response, before any other answer: true when retried. */
async function retryFailed(
  request: LlmRequest,
  response: LlmResponse,
  abortSignal: AbortSignal | undefined,
  handedTo: Handed | undefined,
): Promise<boolean> {
  const retry = abortSignal?.aborted ? undefined : takeOffer(request);
  if (retry) undoModelEdits(request, handedTo);
  return retry !== undefined && (await retry(response));
}

/** `model`, whose `generateContentAsync` retries an offered request once; the same object in every other way. */
export function retryingModel(model: BaseLlm): BaseLlm {
  if (isRetrying(model)) return model;
  const generate = (request: LlmRequest, stream?: boolean, abortSignal?: AbortSignal) =>
    generateRetrying(model, request, stream, abortSignal);
  return new Proxy(model, {
    get(target, property, receiver) {
      if (property === WRAPPED) return true;
      if (property === 'generateContentAsync') return generate;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/**
 * Wraps the model `agent` calls: its own, else the nearest ancestor's it inherits (ADK's
 * `canonicalModel`), so that every agent that inherits it is served by the one wrapper. A model
 * named by a string becomes the instance ADK would resolve it to (`canonicalModel` makes a new
 * one on every read). Idempotent; an agent with no model is left alone.
 */
export function installRetryingModel(agent: BaseAgent | undefined): void {
  let owner = agent;
  while (owner && !(isLlmAgent(owner) && owner.model)) owner = owner.parentAgent;
  if (!owner || !isLlmAgent(owner)) return;
  const model = owner.model;
  if (isBaseLlm(model)) {
    if (!isRetrying(model)) owner.model = retryingModel(model);
  } else if (typeof model === 'string') {
    owner.model = retryingModel(LLMRegistry.newLlm(model));
  }
}
