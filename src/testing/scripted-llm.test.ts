import type { LlmRequest } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ScriptedLlm } from './scripted-llm.js';
import { ratioTokenCounter } from './ground-truth.js';

describe('ScriptedLlm', () => {
  it('should take the stream flag BaseLlm declares, so a streaming wrapper can pass it on', async () => {
    // The fifty-seventh outside trial: `super.generateContentAsync(request, stream)` failed `tsc --strict` (TS2554).
    const model = new ScriptedLlm({
      window: 1_000,
      countTokens: ratioTokenCounter(1),
      script: () => ({ content: { role: 'model', parts: [{ text: 'streamed or not' }] } }),
    });
    const request: LlmRequest = {
      contents: [{ role: 'user', parts: [{ text: 'hello' }] }],
      toolsDict: {},
      liveConnectConfig: {},
    };
    const answers = [];
    for await (const answer of model.generateContentAsync(request, true)) answers.push(answer);
    expect(answers.map((answer) => answer.content?.parts?.[0]?.text)).toEqual(['streamed or not']);
    expect(model.requests).toHaveLength(1);
  });
});
