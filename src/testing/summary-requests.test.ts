import type { LlmRequest } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM_INSTRUCTION } from '../summary/prompt.js';
import { summarizingInstruction } from '../summary/summary-from-request.js';
import type { ScriptCall } from './scripted-llm.js';
import { answeringSummaries, summaryRequestKind } from './summary-requests.js';

const userText = (text: string) => ({ role: 'user', parts: [{ text }] });
const agentCall = { contents: [userText('What is the weather?')], config: {} } as unknown as LlmRequest;
const promptCall = {
  contents: [userText('## Conversation\nuser: my order id is A-1')],
  config: { systemInstruction: SUMMARY_SYSTEM_INSTRUCTION, maxOutputTokens: 400 },
} as unknown as LlmRequest;
const fromRequest = {
  contents: [userText('my order id is A-1'), userText(summarizingInstruction(500))],
  config: { toolConfig: { functionCallingConfig: { mode: 'NONE' } } },
} as unknown as LlmRequest;

describe('summaryRequestKind', () => {
  it("should tell the guard's two summary requests from an agent's own call", () => {
    expect(summaryRequestKind(promptCall)).toBe('prompt');
    expect(summaryRequestKind(fromRequest)).toBe('from-request');
    expect(summaryRequestKind(agentCall)).toBeUndefined();
    // Tool calls switched off alone (an agent's own choice) is not a summary request.
    const noTools = { ...agentCall, config: fromRequest.config } as LlmRequest;
    expect(summaryRequestKind(noTools)).toBeUndefined();
  });
});

describe('answeringSummaries', () => {
  const script = answeringSummaries(() => ({ content: { role: 'model', parts: [{ text: 'script answer' }] } }), 300);
  const call = (request: LlmRequest) => ({ request, index: 0 }) as unknown as ScriptCall;

  it("should answer a summary request with a summary of what it holds, and pass the agent's calls to the script", () => {
    const summary = script(call(promptCall));
    expect(JSON.stringify(summary)).toContain('A-1');
    expect(JSON.stringify(summary)).not.toContain('script answer');
    expect(JSON.stringify(script(call(fromRequest)))).toContain('A-1');
    expect(script(call(agentCall))).toEqual({ content: { role: 'model', parts: [{ text: 'script answer' }] } });
  });
});

describe('answeringSummaries, key facts', () => {
  it("should not read the summarizing instruction's own lines as facts of a request built from the agent's", () => {
    const script = answeringSummaries(() => ({ content: { role: 'model', parts: [{ text: '' }] } }), 300);
    const answer = script({ request: fromRequest, index: 0 } as unknown as ScriptCall);
    const text = answer.content?.parts?.[0]?.text ?? '';
    const facts = (/## Key facts\n([\s\S]*?)\n## /.exec(text)?.[1] ?? '').split('\n');
    expect(facts.some((line) => line.includes('A-1'))).toBe(true);
    expect(facts.filter((line) => line.includes('Keep it under'))).toEqual([]);
  });
});
