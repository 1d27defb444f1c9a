/**
 * A `Summarizer` over an ADK `BaseLlm`: one user turn with the prompt, the
 * output capped by `maxOutputTokens`, thought parts ignored. The call goes
 * straight to the model, not through the Runner, so it never re-enters the
 * plugin (and is not recorded as an agent event).
 */
import type { BaseLlm, LlmRequest } from '@google/adk';
import type { Summarizer, SummarizeRequest, SummarizeResult } from '../../summary/summarizer.js';

/** Wraps `llm` as a summarizer. */
export function llmSummarizer(llm: BaseLlm): Summarizer {
  return {
    name: llm.model,
    async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
      const llmRequest: LlmRequest = {
        model: llm.model,
        contents: [{ role: 'user', parts: [{ text: request.prompt }] }],
        config: {
          systemInstruction: request.systemInstruction,
          maxOutputTokens: request.maxOutputTokens,
          abortSignal: request.signal,
        },
        liveConnectConfig: {},
        toolsDict: {},
      };
      let text = '';
      let finishReason: string | undefined;
      let promptTokens: number | undefined;
      let outputTokens: number | undefined;
      for await (const response of llm.generateContentAsync(llmRequest, false, request.signal)) {
        if (response.errorCode && !response.content?.parts?.length) {
          throw new Error(`summarizer model error ${response.errorCode}: ${response.errorMessage ?? ''}`);
        }
        if (response.partial) continue;
        for (const part of response.content?.parts ?? []) {
          if (typeof part.text === 'string' && part.thought !== true) text += part.text;
        }
        finishReason = response.finishReason ?? finishReason;
        promptTokens = response.usageMetadata?.promptTokenCount ?? promptTokens;
        outputTokens = response.usageMetadata?.candidatesTokenCount ?? outputTokens;
      }
      return { text, finishReason, promptTokens, outputTokens };
    },
  };
}
