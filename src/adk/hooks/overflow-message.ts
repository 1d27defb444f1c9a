/**
 * The text of a thrown model error that states a "prompt too long" rejection, wherever the adapter put it. Users
 * wire other providers into ADK with their own `BaseLlm`: an adapter on fetch or axios throws
 * `Error('Request failed with status code 400')` with the provider's body on `error.response.data`, another throws
 * the parsed body itself, an OpenAI client keeps `code: 'context_length_exceeded'` beside its message. Reading
 * `message` alone, the twenty-eighth outside trial's 16k Claude deployment failed every turn from turn 38 with an
 * error event, the guard saying nothing.
 *
 * An error's message (the thrown one's, or a cause's) is read as a message (`overflowInMessage`: the provider's own
 * words, or any words before a quotation when it carries no JSON body); every other text (a body, a code) must say
 * so in the provider's own words, at its start and before any quotation (`overflowInOwnWords`): a body may echo the
 * request (a 422 that quotes its `input`, axios's `toJSON()` with the request's `config.data`), and a 503 whose
 * body quotes the user's "the input exceeds" is not an overflow (reviews 26 and 27).
 */
import type { LlmRequest } from '@google/adk';
import { overflowInMessage, overflowInOwnWords } from '../../estimate/overflow-error.js';

/** Fields that hold a provider's response body or its message in the errors of common HTTP clients and SDKs. */
const BODY_FIELDS = ['error', 'response', 'data', 'body', 'responseBody', 'cause', 'details'] as const;
/** Of those, the ones that hold a body itself, read whole as JSON too (the parser reads a JSON body's message). */
const WHOLE_BODIES: ReadonlySet<string> = new Set(['error', 'data', 'body', 'responseBody', 'details']);
/** Fields that hold a provider's own words or its error code. */
const TEXT_FIELDS = ['message', 'errorMessage', 'code', 'errorCode'] as const;
/** How deep bodies are followed, how many texts are read, and how much of each. */
const MAX_DEPTH = 4;
const MAX_TEXTS = 24;
const MAX_TEXT_CHARS = 16_384;

/**
 * HTTP's own "request too large", 413: a proxy or server in front of the model (nginx's 1 MB `client_max_body_size`
 * is about a 250k-token request) refuses the request in no words of a provider. Read as an overflow that states
 * nothing, in words the parser and the window's bound both take (the fortieth outside trial: every turn from the 30th
 * ended in an error event, the guard silent).
 */
const PAYLOAD_TOO_LARGE = 'HTTP 413 Payload Too Large: the input exceeds what the server accepts.';
/**
 * Whether `message` is a 413 (`PAYLOAD_TOO_LARGE`) of a request whose bytes are mostly inline media: a body-size
 * limit counts bytes, and a photo's base64 is megabytes of a few hundred tokens, so the request's measure in tokens
 * says nothing of a window there (review 33: one 2 MB photo bounded a 1M-token session at 3,984 tokens for good).
 */
export function mediaBytesRefused(message: string, request: LlmRequest | undefined): boolean {
  if (message !== PAYLOAD_TOO_LARGE || request === undefined) return false;
  let media = 0;
  for (const content of request.contents ?? [])
    for (const part of content.parts ?? []) {
      media += part.inlineData?.data?.length ?? 0;
      // A tool's screenshot in a multimodal function response (Gemini 3), as the estimate reads it (review 34).
      for (const inner of part.functionResponse?.parts ?? []) media += inner.inlineData?.data?.length ?? 0;
    }
  if (media === 0) return false;
  try {
    return media >= JSON.stringify(request.contents).length / 2;
  } catch {
    return true;
  }
}

/** Where clients put the HTTP status: the error itself, its response, its cause. */
const STATUS_HOLDERS = ['response', 'cause'] as const;
/** A 413's words as clients and servers write them (axios's message, a reason phrase, nginx's HTML title). */
const STATUS_413_WORDS =
  /\bstatus code 413\b|\b413\b[\s:-]{0,3}(?:payload|request entity) too large\b|^\s*(?:payload|request entity) too large\b/i;

function payloadTooLarge(error: unknown): boolean {
  if (typeof error === 'string') return STATUS_413_WORDS.test(error.slice(0, MAX_TEXT_CHARS));
  if (typeof error !== 'object' || error === null) return false;
  const record = error as Record<string, unknown>;
  const holders = [record, ...STATUS_HOLDERS.map((field) => fieldOf(record, field))];
  for (const holder of holders) {
    if (typeof holder !== 'object' || holder === null) continue;
    const status =
      fieldOf(holder as Record<string, unknown>, 'status') ?? fieldOf(holder as Record<string, unknown>, 'statusCode');
    if (status === 413 || status === '413') return true;
  }
  const message = fieldOf(record, 'message');
  return typeof message === 'string' && STATUS_413_WORDS.test(message.slice(0, MAX_TEXT_CHARS));
}

/** A text of the error, and whether it is an error's own message (read as a message, not as a body). */
interface ErrorText {
  readonly text: string;
  readonly own: boolean;
}

/** The first text of `error` that states an overflow; `undefined` when none does (or reading it fails). */
export function overflowMessageOf(error: unknown): string | undefined {
  try {
    let read = 0;
    for (const { text, own } of textsOf(error, 0, new Set(), false)) {
      const head = text.slice(0, MAX_TEXT_CHARS);
      if (own ? overflowInMessage(head) : overflowInOwnWords(head)) return head;
      if ((read += 1) >= MAX_TEXTS) return undefined;
    }
    return payloadTooLarge(error) ? PAYLOAD_TOO_LARGE : undefined;
  } catch {
    // A revoked proxy or a getter that throws: the error is left as the provider's, not replaced by the guard's.
    return undefined;
  }
}

/** The error's texts: its own words first, then its bodies' (a body as JSON too). */
function* textsOf(value: unknown, depth: number, seen: Set<object>, whole: boolean): Generator<ErrorText> {
  if (typeof value === 'string') {
    if (value.length > 0) yield { text: value, own: depth === 0 };
    return;
  }
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || seen.has(value) || isBinary(value)) return;
  seen.add(value);
  const record = value as Record<string, unknown>;
  for (const field of TEXT_FIELDS) {
    const text = fieldOf(record, field);
    const own = (depth === 0 || value instanceof Error) && (field === 'message' || field === 'errorMessage');
    if (typeof text === 'string' && text.length > 0) yield { text, own };
  }
  for (const field of BODY_FIELDS) yield* textsOf(fieldOf(record, field), depth + 1, seen, WHOLE_BODIES.has(field));
  if (whole && isPlain(value)) {
    const json = jsonOf(value);
    if (json !== undefined) yield { text: json, own: false };
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

/** A body as a parser produced it: a plain object or array (not an Error, a client's object, a stream). */
function isPlain(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}

/** A buffer or typed array: an `arraybuffer` response's bytes, never read (20 MB of JSON blocked 2.9 s: review 26). */
function isBinary(value: object): boolean {
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}

function jsonOf(value: object): string | undefined {
  try {
    return JSON.stringify(value)?.slice(0, MAX_TEXT_CHARS);
  } catch {
    return undefined;
  }
}
