/**
 * A thinking model as the default summarizer (the agent's own model): Gemini 2.5 and later count their thoughts in
 * `maxOutputTokens`, so a summary request capped at the summary's size alone came back cut to a line and was kept as
 * the summary (the sixty-third outside trial, with a model emulating that rule). Real Runner and session service; the
 * scripted model, thinking before it writes, is the only stand-in.
 */
import { describe, expect, it } from 'vitest';
import type { LlmRequest, LlmResponse } from '@google/adk';
import { ContextGuard, type CompactionRecord } from '../../src/index.js';
import {
  answeringSummaries,
  CapturingLogger,
  ratioTokenCounter,
  ScriptedLlm,
  summaryRequestKind,
  type ModelScript,
} from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

const WINDOW = 8_000;
/** Tokens the emulated model thinks before each summary, inside the request's output cap. */
const THOUGHTS = 1_500;

/** Summaries from a model that thinks `thoughts` tokens first, then writes in what is left of the cap (3 characters a token). */
function thinkingSummaries(script: ModelScript, thoughts: (cap: number) => number, caps: number[]): ModelScript {
  const summaries = answeringSummaries(script, 1_000);
  return (call) => {
    if (!summaryRequestKind(call.request)) return script(call);
    const cap = call.request.config?.maxOutputTokens ?? 0;
    caps.push(cap);
    const left = Math.max(0, cap - thoughts(cap));
    const full = summaries(call);
    const text = full.content.parts?.map((part) => part.text ?? '').join('') ?? '';
    if (text.length <= left * 3) return full;
    return {
      content: { role: 'model', parts: [{ text: text.slice(0, left * 3) }] },
      finishReason: 'MAX_TOKENS' as LlmResponse['finishReason'],
    };
  };
}

async function run(
  model: string,
  thinkingBudget?: number,
  thoughts: (cap: number) => number = () => thinkingBudget ?? THOUGHTS,
) {
  const caps: number[] = [];
  const llm = new ScriptedLlm({
    model,
    window: WINDOW,
    countTokens: ratioTokenCounter(2),
    script: thinkingSummaries(toolThenAnswerScript(3_000), thoughts, caps),
  });
  const logger = new CapturingLogger();
  const records: CompactionRecord[] = [];
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    maskKeepRecent: 0,
    prepareTurnsAhead: 0,
    logger,
    onCompaction: (record) => records.push(record),
  });
  const h = createHarness({ model: llm, plugins: [guard] });
  if (thinkingBudget !== undefined)
    (h.agent as unknown as { generateContentConfig: LlmRequest['config'] }).generateContentConfig = {
      thinkingConfig: { thinkingBudget },
    };
  const session = await h.startSession();
  await h.runTurns(session.id, 12);
  return { caps, records, logger, llm };
}

describe('a thinking model as the summarizer', () => {
  it('should leave the model room to think beside the summary, so that no summary comes back cut', async () => {
    const { caps, records, llm } = await run('gemini-2.5-flash');
    expect(records.length).toBeGreaterThanOrEqual(2);
    // Before: each cap was the summary's alone (under 1,500 on this window), and every summary a cut line.
    expect(Math.min(...caps)).toBeGreaterThan(THOUGHTS);
    expect(records.map((record) => [record.fallback, record.summaryTruncated])).toEqual(
      records.map(() => [false, false]),
    );
    expect(llm.rejectedRequests).toHaveLength(0);
  });

  it("should allow an agent's explicit thinking budget on top of the summary's cap", async () => {
    const { caps, records } = await run('gemini-2.5-pro', 4_000);
    expect(records.length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...caps)).toBeGreaterThan(4_000);
    expect(records.every((record) => !record.fallback && !record.summaryTruncated)).toBe(true);
  });

  it('should fall back to the mechanical summary, with a warning, when thoughts still take the cap', async () => {
    // A model not known to think, that thinks all the same and leaves 20 tokens of its cap: a summary cut to a line.
    const { records, logger } = await run('custom-model', undefined, (cap) => cap - 20);
    expect(records.length).toBeGreaterThanOrEqual(2);
    expect(records.every((record) => record.fallback && record.fallbackReason === 'cut')).toBe(true);
    const warned = logger.lines.filter(
      (line) => line.level === 'warn' && /cut short by its output cap/.test(line.message),
    );
    expect(warned.length).toBeGreaterThanOrEqual(1);
  });
});
