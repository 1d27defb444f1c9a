/**
 * Typed builders for unit tests of the pure core: contents, parts, state
 * records and policies as plain data, without casts.
 */
import type { Content, Part } from '@google/genai';
import { POLICY_DEFAULTS, type ContextGuardOptions, type ResolvedPolicy } from '../../src/options.js';
import { EMPTY_USAGE, type UsageRecord } from '../../src/usage/stored-usage.js';
import { RECORD_VERSION } from '../../src/state/codec.js';
import { type SummaryRecord } from '../../src/summary/stored-summary.js';

export function userText(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}

export function modelText(text: string): Content {
  return { role: 'model', parts: [{ text }] };
}

/** A model content that only thinks (a thought part, never shown to the user). */
export function modelThought(text: string): Content {
  return { role: 'model', parts: [{ text, thought: true }] };
}

/** Another agent's events as ADK renders them for this agent (`convertForeignEvent`): a first part `For context:`. */
export function foreignContext(text: string): Content {
  return { role: 'user', parts: [{ text: 'For context:' }, { text }] };
}

/** Another agent's tool result as ADK renders it for this agent (`convertForeignEvent`: its JSON as text). */
export function foreignToolResult(author: string, tool: string, response: unknown): Content {
  const text = typeof response === 'string' ? response : JSON.stringify(response);
  return foreignContext(`[${author}] tool \`${tool}\` returned result: ${text}`);
}

export interface ToolCall {
  readonly name: string;
  readonly args?: Record<string, unknown>;
}

/** A model content calling one or more tools (parallel calls when several). */
export function functionCalls(...calls: ToolCall[]): Content {
  return { role: 'model', parts: calls.map((call) => ({ functionCall: { name: call.name, args: call.args ?? {} } })) };
}

export function functionCall(name: string, args: Record<string, unknown> = {}): Content {
  return functionCalls({ name, args });
}

export interface ToolResult {
  readonly name: string;
  readonly response: Record<string, unknown>;
}

/** The user content that carries the results of one or more tool calls. */
export function functionResponses(...results: ToolResult[]): Content {
  return {
    role: 'user',
    parts: results.map((result) => ({ functionResponse: { name: result.name, response: result.response } })),
  };
}

export function functionResponse(name: string, response: Record<string, unknown>): Content {
  return functionResponses({ name, response });
}

/** A call and its result, as ADK places them: the response right after the call. */
export function toolExchange(
  name: string,
  args: Record<string, unknown>,
  response: Record<string, unknown>,
): [Content, Content] {
  return [functionCall(name, args), functionResponse(name, response)];
}

export function inlineDataPart(mimeType: string, base64: string): Part {
  return { inlineData: { mimeType, data: base64 } };
}

export function fileDataPart(mimeType: string, fileUri: string): Part {
  return { fileData: { mimeType, fileUri } };
}

export function contentOf(role: 'user' | 'model', ...parts: Part[]): Content {
  return { role, parts };
}

/** A usage record: the empty record with the given fields. */
export function usageRecord(fields: Partial<UsageRecord> = {}): UsageRecord {
  return { ...EMPTY_USAGE, ...fields };
}

/** A summary record with sensible defaults and the given fields. */
export function summaryRecord(
  fields: Partial<SummaryRecord> & Pick<SummaryRecord, 'covered' | 'anchor'>,
): SummaryRecord {
  return {
    version: RECORD_VERSION,
    text: 'The user asked for a log analysis; fetch_logs returned 3 errors.',
    compactions: 1,
    fallback: false,
    createdAt: 1_700_000_000_000,
    ...fields,
  };
}

/** A resolved policy: the defaults with the given fields. */
export function testPolicy(fields: Partial<ResolvedPolicy> = {}): ResolvedPolicy {
  return {
    ...POLICY_DEFAULTS,
    contextWindow: undefined,
    bufferTokens: undefined,
    hardLimitRatio: undefined,
    maxPinnedTokens: undefined,
    toolOutputTruncation: undefined,
    summarizer: undefined,
    summarizerContextWindow: undefined,
    tools: {},
    ...fields,
  };
}

/**
 * Options as they arrive from an untyped caller (plain JavaScript, a JSON
 * config file): any shape at all. The one place where a test hands the
 * validator values its types forbid.
 */
export function untypedOptions(options: unknown): ContextGuardOptions {
  return options as ContextGuardOptions;
}

/** A string of exactly `length` UTF-16 units, made of a repeated word. */
export function textOfLength(length: number, word = 'lorem '): string {
  return word.repeat(Math.ceil(length / word.length)).slice(0, length);
}
