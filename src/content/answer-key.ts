/**
 * What identifies a function response the application sent, in the session's events and in a request alike. ADK
 * strips the call ids it generates (`adk-…`) from the contents it sends the model, so a response is known there by
 * its tool name and its response, hashed (a summary record keeps the keys it has read).
 */
import { createHash } from 'node:crypto';

/** The key of a response of tool `name`; `undefined` when the response cannot be written as JSON. */
export function answerKey(name: string | undefined, response: unknown): string | undefined {
  const json = responseJson(response);
  return json === undefined ? undefined : answerKeyOfJson(name, json);
}

/** The response as JSON, as its key reads it; `undefined` when it cannot be written so (a cycle, a BigInt). */
export function responseJson(response: unknown): string | undefined {
  try {
    return JSON.stringify(response);
  } catch {
    return undefined;
  }
}

/** The key of a response of tool `name` already written as `json` (`responseJson`). */
export function answerKeyOfJson(name: string | undefined, json: string): string {
  return createHash('sha1')
    .update(`${name ?? ''}\u0000${json}`)
    .digest('base64')
    .slice(0, 16);
}
