import { describe, expect, it } from 'vitest';
import { DEFAULT_THINKING_ALLOWANCE, isGeminiName, summaryOutputCap, thinkingAllowance } from './thinking-allowance.js';

/** The allowance of a model known by its name alone. */
const byName = (model: string, thinking?: Parameters<typeof thinkingAllowance>[1]): number =>
  thinkingAllowance(model, thinking, isGeminiName(model));

describe('thinkingAllowance', () => {
  it("should allow the agent's explicit thinking budget, and nothing when thinking is off", () => {
    expect(byName('gemini-2.5-pro', { thinkingBudget: 2_048 })).toBe(2_048);
    expect(byName('gemini-2.5-flash', { thinkingBudget: 0 })).toBe(0);
    // A tuned Vertex endpoint is a Gemini by its class, not its name (review 56).
    expect(thinkingAllowance('projects/p/locations/l/endpoints/123', { thinkingBudget: 4_096 }, true)).toBe(4_096);
  });

  it('should allow the default for dynamic thinking, a thinking level, or a Gemini model that thinks by default', () => {
    expect(byName('gemini-2.5-pro', { thinkingBudget: -1 })).toBe(DEFAULT_THINKING_ALLOWANCE);
    expect(byName('gemini-2.0-flash', { includeThoughts: true })).toBe(DEFAULT_THINKING_ALLOWANCE);
    const thinkers = [
      'gemini-2.5-flash',
      'models/gemini-3-pro-preview',
      'gemini-3.1-flash',
      'vertex_ai/gemini-2.5-pro',
      'projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash',
      'gemini-flash-latest',
      'gemini-pro-latest',
      'gemini-2.0-flash-thinking-exp-01-21',
    ];
    for (const model of thinkers) expect(byName(model), model).toBe(DEFAULT_THINKING_ALLOWANCE);
  });

  it('should allow nothing for a model not known to think, or not a Gemini, whatever its config says', () => {
    for (const model of ['gemini-2.0-flash', 'gemini-1.5-pro', 'claude-sonnet-4', 'gpt-4o', 'not-gemini-2.5-x'])
      expect(byName(model), model).toBe(0);
    // Review 55: a vLLM-style server checks input + max_tokens against its window and refused every summary request.
    expect(byName('qwen3-32b', { includeThoughts: true })).toBe(0);
    expect(byName('claude-sonnet-4', { thinkingBudget: 4_096 })).toBe(0);
  });
});

describe('summaryOutputCap', () => {
  it("should keep the request within Gemini's largest output cap where it allows for thinking", () => {
    expect(summaryOutputCap(4_096, DEFAULT_THINKING_ALLOWANCE)).toBe(4_096 + DEFAULT_THINKING_ALLOWANCE);
    expect(summaryOutputCap(60_000, DEFAULT_THINKING_ALLOWANCE)).toBe(65_536);
    expect(summaryOutputCap(70_000, 32_768)).toBe(65_536);
  });

  it("should leave the summary's cap as it is where nothing is allowed for thinking", () => {
    expect(summaryOutputCap(1_400, 0)).toBe(1_400);
  });
});
