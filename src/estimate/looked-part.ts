/**
 * A shallow look at one part of a content the guard sent (estimate/sent-contents.ts): the part, its
 * text, and for a tool call or result the call object, its arguments or response object and that
 * object's own fields, so an edit in place is seen down to a result's top-level fields (a callback
 * that cuts `functionResponse.response.output` where it stands, or swaps the `functionResponse`).
 * References and field values only, never copies of text; an object of more fields than `MAX_FIELDS`
 * is looked at by reference alone (listing its keys to tell is still linear in them: some 15 ms for a result of
 * 100,000 top-level keys, which default tool-output truncation keeps out of a request). Pure.
 */
import type { Part } from '@google/genai';

/** Fields of a tool call's arguments or a result's response read at most (a 90,000-key result is not listed). */
const MAX_FIELDS = 64;

type Holder = 'functionResponse' | 'functionCall';

/** A tool call or result as looked at: the object, its payload and the payload's fields then. */
interface LookedData {
  readonly holder: Holder;
  readonly object: object;
  readonly payload: unknown;
  readonly fields: readonly (readonly [string, unknown])[] | undefined;
}

export interface LookedPart {
  readonly part: Part;
  readonly text: string | undefined;
  readonly data: LookedData | undefined;
}

function holderOf(part: Part): Holder | undefined {
  if (part.functionResponse) return 'functionResponse';
  return part.functionCall ? 'functionCall' : undefined;
}

function payloadOf(holder: Holder, object: object): unknown {
  return holder === 'functionResponse'
    ? (object as { response?: unknown }).response
    : (object as { args?: unknown }).args;
}

function fieldsOf(payload: unknown): (readonly [string, unknown])[] | undefined {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const keys = Object.keys(payload);
  if (keys.length > MAX_FIELDS) return undefined;
  return keys.map((key) => [key, (payload as Record<string, unknown>)[key]] as const);
}

export function lookPart(part: Part): LookedPart {
  const holder = holderOf(part);
  const object = holder && (part[holder] as object);
  if (!holder || !object) return { part, text: part.text, data: undefined };
  const payload = payloadOf(holder, object);
  return { part, text: part.text, data: { holder, object, payload, fields: fieldsOf(payload) } };
}

function sameFields(fields: LookedData['fields'], payload: unknown): boolean {
  if (fields === undefined) return true;
  const now = payload as Record<string, unknown>;
  if (Object.keys(now).length !== fields.length) return false;
  // Object.is: a NaN field (ADK's deep copy keeps it) is the same field, not an edit on every call.
  return fields.every(([key, value]) => Object.prototype.hasOwnProperty.call(now, key) && Object.is(now[key], value));
}

/**
 * Whether `now` (the part at the looked part's place) differs from it: another part or text; with `deep`, also
 * another call object, payload or payload field (a retry keeps those: it sends the same part objects).
 */
export function partEdited(look: LookedPart, now: Part, deep: boolean): boolean {
  if (now !== look.part || now.text !== look.text) return true;
  if (!deep) return false;
  const { data } = look;
  if (!data) return holderOf(now) !== undefined;
  const object = now[data.holder];
  if (object !== data.object) return true;
  const payload = payloadOf(data.holder, object);
  return payload !== data.payload || !sameFields(data.fields, payload);
}

/** The part as it was looked at: its text, call object and payload fields then (deeper values as they are now). */
export function partAsLooked(look: LookedPart): Part {
  const { part, text, data } = look;
  const withText = part.text === text ? part : { ...part, text };
  if (!data) return withText;
  const payload = data.fields ? Object.fromEntries(data.fields) : data.payload;
  const key = data.holder === 'functionResponse' ? 'response' : 'args';
  return { ...withText, [data.holder]: { ...data.object, [key]: payload } };
}
