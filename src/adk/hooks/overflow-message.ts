/**
 * The text of a thrown model error that states a "prompt too long" rejection, wherever the adapter put it. Users
 * wire other providers into ADK with their own `BaseLlm`: an adapter on fetch or axios throws
 * `Error('Request failed with status code 400')` with the provider's body on `error.response.data`, another throws
 * the parsed body itself, an OpenAI client keeps `code: 'context_length_exceeded'` beside its message. Reading
 * `message` alone, the twenty-eighth outside trial's 16k Claude deployment failed every turn from turn 38 with an
 * error event, the guard saying nothing. Each text is read on its own (the parser trusts only a statement at the
 * start of the provider's own words), the error's message first.
 */
import { isOverflowError } from '../../usage/provider-feedback.js';

/** Fields that hold a provider's response body or its message in the errors of common HTTP clients and SDKs. */
const BODY_FIELDS = ['error', 'response', 'data', 'body', 'responseBody', 'cause', 'details'] as const;
/**
 * Of those, the ones that hold a body itself, read whole as JSON too; not `response` (axios keeps the request it
 * sent beside the body there: the user's words could read as a rejection) nor an `Error`'s other fields.
 */
const WHOLE_BODIES: ReadonlySet<string> = new Set(['error', 'data', 'body', 'responseBody', 'details']);
/** Fields that hold a provider's own words or its error code. */
const TEXT_FIELDS = ['message', 'errorMessage', 'code', 'errorCode'] as const;
/** How deep bodies are followed, how many texts are read, and how much of each. */
const MAX_DEPTH = 4;
const MAX_TEXTS = 24;
const MAX_TEXT_CHARS = 16_384;

/** The first text of `error` that states an overflow; `undefined` when none does. */
export function overflowMessageOf(error: unknown): string | undefined {
  let read = 0;
  for (const text of textsOf(error, 0, new Set(), true)) {
    if (isOverflowError(text.slice(0, MAX_TEXT_CHARS))) return text.slice(0, MAX_TEXT_CHARS);
    if ((read += 1) >= MAX_TEXTS) return undefined;
  }
  return undefined;
}

/** The error's texts: its own words first, then its bodies' (a body as JSON too: the parser reads JSON bodies). */
function* textsOf(value: unknown, depth: number, seen: Set<object>, whole: boolean): Generator<string> {
  if (typeof value === 'string') {
    if (value.length > 0) yield value;
    return;
  }
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || seen.has(value)) return;
  seen.add(value);
  const record = value as Record<string, unknown>;
  for (const field of TEXT_FIELDS) if (typeof record[field] === 'string') yield record[field];
  for (const field of BODY_FIELDS) yield* textsOf(fieldOf(record, field), depth + 1, seen, WHOLE_BODIES.has(field));
  if (whole && !(value instanceof Error)) {
    const json = jsonOf(value);
    if (json !== undefined) yield json;
  }
}

/** A field read without letting a throwing getter out. */
function fieldOf(record: Record<string, unknown>, field: string): unknown {
  try {
    return record[field];
  } catch {
    return undefined;
  }
}

function jsonOf(value: object): string | undefined {
  try {
    return JSON.stringify(value)?.slice(0, MAX_TEXT_CHARS);
  } catch {
    return undefined;
  }
}
