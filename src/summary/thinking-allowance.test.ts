import { describe, expect, it } from 'vitest';
import { DEFAULT_THINKING_ALLOWANCE, thinkingAllowance } from './thinking-allowance.js';

describe('thinkingAllowance', () => {
  it("should allow the agent's explicit thinking budget, and nothing when thinking is off", () => {
    expect(thinkingAllowance('gemini-2.5-pro', { thinkingBudget: 2_048 })).toBe(2_048);
    expect(thinkingAllowance('gemini-2.5-flash', { thinkingBudget: 0 })).toBe(0);
  });

  it('should allow the default for dynamic thinking, a thinking level, or a Gemini model that thinks by default', () => {
    expect(thinkingAllowance('gemini-2.5-pro', { thinkingBudget: -1 })).toBe(DEFAULT_THINKING_ALLOWANCE);
    expect(thinkingAllowance('my-model', { includeThoughts: true })).toBe(DEFAULT_THINKING_ALLOWANCE);
    for (const model of [
      'gemini-2.5-flash',
      'models/gemini-3-pro-preview',
      'gemini-3.1-flash',
      'vertex_ai/gemini-2.5-pro',
    ])
      expect(thinkingAllowance(model, undefined), model).toBe(DEFAULT_THINKING_ALLOWANCE);
  });

  it('should allow nothing for a model not known to think, told nothing about thinking', () => {
    for (const model of ['gemini-2.0-flash', 'gemini-1.5-pro', 'claude-sonnet-4', 'gpt-4o', 'not-gemini-2.5-x'])
      expect(thinkingAllowance(model, undefined), model).toBe(0);
  });
});
