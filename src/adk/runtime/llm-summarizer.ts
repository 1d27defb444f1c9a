/**
 * A `Summarizer` over an ADK `BaseLlm`: one user turn with the prompt, the
 * output capped by `maxOutputTokens` and what the model may think on top of it, thought parts ignored. The call goes
 * straight to the model, not through the Runner, so it never re-enters the
 * plugin (and is not recorded as an agent event).
 *
 * Over the agent's own model, given the agent's request (`agentRequest`), a request that carries
 * the agent's leading contents is sent as their continuation (summary/summary-from-request.ts):
 * the agent's system instruction, tools and contents first, so the provider's cache serves them.
 */
import type { BaseLlm, LlmRequest, LlmResponse } from '@google/adk';
import type { Summarizer, SummarizeRequest, SummarizeResult } from '../../summary/summarizer.js';
import { readReportedUsage } from '../../usage/reported-usage.js';
import { summaryFromRequest, type AgentRequestShape } from '../../summary/summary-from-request.js';
import { summaryOutputCap } from '../../summary/thinking-allowance.js';
import { thinkingRoomOf } from './summary-thinking-room.js';

/** Wraps `llm` as a summarizer. */
export function llmSummarizer(llm: BaseLlm): Summarizer {
  return requestSummarizer(llm, undefined);
}

/**
 * A summarizer model of the guard's options, for one agent's call: its requests carry the agent's request labels
 * (ADK's `adk_agent_name`, billing labels on Vertex AI), so the provider's bill charges the summary to that agent.
 */
export function optionModelSummarizer(llm: BaseLlm, agentRequest: AgentRequestShape | undefined): Summarizer {
  return requestSummarizer(llm, agentRequest, false);
}

/** The agent's own model as its summarizer, given the agent's request (`agentRequest`) a summary continues. */
export function agentModelSummarizer(llm: BaseLlm, agentRequest: AgentRequestShape | undefined): Summarizer {
  return requestSummarizer(llm, agentRequest);
}

function requestSummarizer(llm: BaseLlm, agentRequest: AgentRequestShape | undefined, continues = true): Summarizer {
  return {
    name: llm.model,
    async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
      const llmRequest = summaryLlmRequest(llm, request, agentRequest, continues);
      let text = '';
      let finishReason: string | undefined;
      let usage: LlmResponse['usageMetadata'];
      for await (const response of llm.generateContentAsync(llmRequest, false, request.signal)) {
        if (response.errorCode && !response.content?.parts?.length) {
          throw new Error(`summarizer model error ${response.errorCode}: ${response.errorMessage ?? ''}`);
        }
        if (response.partial) continue;
        for (const part of response.content?.parts ?? []) {
          if (typeof part.text === 'string' && part.thought !== true) text += part.text;
        }
        finishReason = response.finishReason ?? finishReason;
        usage = response.usageMetadata ?? usage;
      }
      return { text, finishReason, ...reportedUsage(usage) };
    },
  };
}

/** The call's usage as the provider reported it: thinking is billed as output, and the cached part is kept for the bill. */
function reportedUsage(
  usage: LlmResponse['usageMetadata'],
): Pick<SummarizeResult, 'promptTokens' | 'cachedPromptTokens' | 'outputTokens'> {
  if (!usage) return {};
  // A prompt count that leaves the cached tokens out is read as the agent's own calls' are (usage/reported-usage.ts).
  const prompt = readReportedUsage(usage).usage.promptTokenCount;
  const output =
    usage.candidatesTokenCount === undefined && usage.thoughtsTokenCount === undefined
      ? undefined
      : (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
  return {
    promptTokens: prompt,
    cachedPromptTokens: usage.cachedContentTokenCount,
    outputTokens: output,
  };
}

function summaryLlmRequest(
  llm: BaseLlm,
  request: SummarizeRequest,
  agentRequest: AgentRequestShape | undefined,
  continues: boolean,
): LlmRequest {
  const base = { model: llm.model, liveConnectConfig: {}, toolsDict: {} };
  // A thinking model counts its thoughts in the cap: the summary's own size is held by the prompt and the guard's cut.
  if (continues && agentRequest && request.leadingContents) {
    // The continuation carries the agent's config, its thinkingConfig included.
    const thinking = agentRequest.config?.thinkingConfig;
    const cap = summaryOutputCap(request.maxOutputTokens, thinkingRoomOf(llm, thinking));
    const built = summaryFromRequest(agentRequest, request.leadingContents, request.prompt, cap);
    return { ...base, contents: built.contents, config: { ...built.config, abortSignal: request.signal } };
  }
  const maxOutputTokens = summaryOutputCap(request.maxOutputTokens, thinkingRoomOf(llm, undefined));
  return {
    ...base,
    contents: [{ role: 'user', parts: [{ text: request.prompt }] }],
    config: {
      systemInstruction: request.systemInstruction,
      maxOutputTokens,
      abortSignal: request.signal,
      // The agent's labels (ADK's agent name): the provider bills the summary to the agent it was made for.
      ...(agentRequest?.config?.labels && { labels: { ...agentRequest.config.labels } }),
    },
  };
}
