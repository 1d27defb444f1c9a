/**
 * What identifies a function response the application sent, in the session's events and in a request alike. ADK
 * strips the call ids it generates (`adk-…`) from the contents it sends the model, so a response is known there by
 * its tool name and its response, hashed (a summary record keeps the keys it has read).
 */
import { createHash } from 'node:crypto';

/** The key of a response of tool `name`; `undefined` when the response cannot be written as JSON. */
export function answerKey(name: string | undefined, response: unknown): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(response);
  } catch {
    return undefined;
  }
  if (json === undefined) return undefined;
  return createHash('sha1')
    .update(`${name ?? ''}\u0000${json}`)
    .digest('base64')
    .slice(0, 16);
}
