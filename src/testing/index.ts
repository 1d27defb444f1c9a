/**
 * Test helpers for applications that use adk-context-guard: a strict scripted
 * model and ground-truth token counters. Import from `adk-context-guard/testing`.
 */
export { ScriptedLlm, promptTooLongError } from './scripted-llm.js';
export { cachedPrefixTokens, DEFAULT_MIN_CACHED_TOKENS, snapshotRequest } from './cached-prefix.js';
export type { PrefixSnapshot } from './cached-prefix.js';
export type { ModelScript, RecordedRequest, ScriptCall, ScriptedLlmOptions } from './scripted-llm.js';
export { ratioTokenCounter, requestPayload, tokenizerTokenCounter } from './ground-truth.js';
export type { RequestTokenCounter } from './ground-truth.js';
