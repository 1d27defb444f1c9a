/**
 * An agent that fetches a page of logs on every user turn and answers once it has it, on a scripted model that
 * also writes the summaries it is asked for (the guard's default summarizer is the agent's own model): the
 * session of scripts/preparation-cost.ts and test/integration/prepared-fell-short.test.ts.
 */
import { FunctionTool, LlmAgent } from '@google/adk';
import { contentsText, logText, ratioTokenCounter, ScriptedLlm, scriptedSummaryText } from '../../src/testing/index.js';

export function pageReaderAgent(window: number, kb: number): { readonly agent: LlmAgent; readonly model: ScriptedLlm } {
  const model = new ScriptedLlm({
    model: 'gemini-2.5-flash',
    window,
    countTokens: ratioTokenCounter(1.3),
    script: ({ request, index }) => {
      if (String(request.config?.toolConfig?.functionCallingConfig?.mode ?? '') === 'NONE') {
        const text = scriptedSummaryText(contentsText(request.contents), request.config?.maxOutputTokens ?? 1_024);
        return { content: { role: 'model', parts: [{ text }] } };
      }
      if (request.contents.at(-1)?.parts?.some((part) => part.functionResponse))
        return { content: { role: 'model', parts: [{ text: `Answer ${index}.` }] } };
      return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: { page: index } } }] } };
    },
  });
  const fetchLogs = new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns a page of logs.',
    parameters: { type: 'OBJECT', properties: { page: { type: 'INTEGER' } } } as never,
    execute: (input: unknown) => ({ logs: logText(kb * 1_024, (input as { page: number }).page) }),
  });
  return { agent: new LlmAgent({ name: 'worker', model, instruction: 'You read logs.', tools: [fetchLogs] }), model };
}
