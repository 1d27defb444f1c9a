/**
 * Summary requests the agents' own model receives when the guard summarizes with it (no
 * `summarizer` option, as a user with default options runs it): one built from the agent's request
 * (tool calls off, the summarizing instruction as the last user turn; see
 * summary/summary-from-request.ts), or the guard's own bounded prompt when that would not fit
 * (recognised by its summarizer system instruction). `answeringSummaries` answers both with the text
 * a `ScriptedSummarizer` writes, read from what the request holds, so a test of an app without a
 * `summarizer` gets summaries rather than its script's answers (which the guard would store as
 * summaries: it cannot tell a poor summary from a good one).
 */
import type { LlmRequest } from '@google/adk';
import type { Content } from '@google/genai';
import { SUMMARY_SYSTEM_INSTRUCTION } from '../summary/prompt.js';
import { renderContent } from '../summary/render-content.js';
import { summarizingInstruction } from '../summary/summary-from-request.js';
import type { ModelScript } from './scripted-llm.js';
import { scriptedSummaryText } from './scripted-summarizer.js';

/** `from-request`: the agent's request continued by the instruction; `prompt`: the guard's own prompt. */
export type SummaryRequestKind = 'from-request' | 'prompt';

/** The instruction's first paragraph, which does not depend on the summary's cap. */
const INSTRUCTION_OPENING = summarizingInstruction(0).split('\n')[0] ?? '';

function lastUserText(contents: readonly Content[]): string | undefined {
  const last = contents.at(-1);
  return last?.role === 'user' ? last.parts?.at(-1)?.text : undefined;
}

/** Which summary request `request` is, or undefined for an agent's own call. */
export function summaryRequestKind(request: LlmRequest): SummaryRequestKind | undefined {
  const config = request.config;
  if (config?.systemInstruction === SUMMARY_SYSTEM_INSTRUCTION) return 'prompt';
  const toolCalls = config?.toolConfig?.functionCallingConfig?.mode;
  if (String(toolCalls) !== 'NONE' || !INSTRUCTION_OPENING) return undefined;
  return lastUserText(request.contents ?? [])?.startsWith(INSTRUCTION_OPENING) ? 'from-request' : undefined;
}

/**
 * What the scripted summary is read from: the guard's prompt as sent, or the agent's contents the
 * request continues, rendered as the guard renders them for its own prompt, then the instruction.
 */
function summarySource(request: LlmRequest, kind: SummaryRequestKind): string {
  const contents = request.contents ?? [];
  // The guard's prompt is read as the ScriptedSummarizer reads it: its text as sent.
  if (kind === 'prompt')
    return contents.flatMap((content) => (content.parts ?? []).map((part) => part.text ?? '')).join('\n');
  // Quoted as the guard's prompt quotes it, so the instruction's own lines are not read as the conversation's.
  const conversation = contents.slice(0, -1).map((content) => renderContent(content));
  return ['<conversation>', ...conversation, '</conversation>', lastUserText(contents) ?? ''].join('\n');
}

/**
 * `script` for the agents' calls; a summary request gets the scripted summary under its own output
 * cap, or `defaultMaxOutputTokens` when it states none.
 */
export function answeringSummaries(script: ModelScript, defaultMaxOutputTokens: number): ModelScript {
  return (call) => {
    const kind = summaryRequestKind(call.request);
    if (!kind) return script(call);
    const cap = call.request.config?.maxOutputTokens ?? defaultMaxOutputTokens;
    const text = scriptedSummaryText(summarySource(call.request, kind), cap);
    return { content: { role: 'model', parts: [{ text }] } };
  };
}
