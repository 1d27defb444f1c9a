import { describe, expect, it } from 'vitest';
import { charsPerTokenTokenizer } from '../estimate/tokenizer.js';
import { SUMMARY_SYSTEM_INSTRUCTION, buildSummaryPrompt } from '../summary/prompt.js';
import { ScriptedSummarizer } from './scripted-summarizer.js';

const conversation = [
  { role: 'user', parts: [{ text: 'Ship order ORD-7731 to warehouse 12 before 2026-12-01.' }] },
  { role: 'model', parts: [{ text: 'Noted: ORD-7731, warehouse 12, due 2026-12-01.' }] },
  // Bulk with no digits, so the summary is long enough to show its key facts whole.
  { role: 'user', parts: [{ text: 'Please keep me posted. '.repeat(400) }] },
];

function keyFacts(summary: string): string[] {
  const section = /## Key facts\n([\s\S]*?)\n## /.exec(summary)?.[1] ?? '';
  return section.split('\n').filter((line) => line.startsWith('- '));
}

describe('ScriptedSummarizer', () => {
  const { prompt } = buildSummaryPrompt({
    contents: conversation,
    currentRequest: 'Where does ORD-7731 go?',
    maxPromptTokens: 4_000,
    maxSummaryTokens: 973,
    tokenizer: charsPerTokenTokenizer,
  });

  it("should take its key facts from the conversation the prompt quotes, never from the prompt's instruction", async () => {
    expect(prompt).toContain('Keep it under');
    const result = await new ScriptedSummarizer().summarize({
      prompt,
      systemInstruction: SUMMARY_SYSTEM_INSTRUCTION,
      maxOutputTokens: 973,
      signal: new AbortController().signal,
    });
    const facts = keyFacts(result.text);
    expect(facts.some((line) => line.includes('warehouse 12'))).toBe(true);
    expect(facts.filter((line) => line.includes('Keep it under'))).toEqual([]);
  });

  it('should report the prompt tokens it counted, as a provider reports them', async () => {
    const summarizer = new ScriptedSummarizer({ countText: (text) => text.length });
    const result = await summarizer.summarize({
      prompt,
      systemInstruction: 'sys',
      maxOutputTokens: 400,
      signal: new AbortController().signal,
    });
    expect(result.promptTokens).toBe(prompt.length + 3);
    expect(summarizer.billedPromptTokens).toBe(prompt.length + 3);
  });
});
