/**
 * A long tool loop inside one turn (a coding agent's single task, many steps) compacts several
 * times while the task is in flight. The summary goes after the task, so every compaction keeps
 * the prefix the provider cached (system instruction, tools and the task) and is billed only for
 * what follows it. Real Runner and session service; the scripted model serves the common prefix
 * with the previous request from its cache (src/testing/cached-prefix.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { ContextGuard } from '../../src/index.js';
import { SUMMARY_MARKER } from '../../src/internal.js';
import { ScriptedSummarizer, contentsText, type ModelScript } from '../../src/testing/index.js';
import { createHarness } from '../support/agent-harness.js';
import { pairingViolations } from '../support/request-invariants.js';

const WINDOW = 16_000;
const STEPS = 40;
/** About 3,500 tokens of task: with the system instruction, over the 2,048-token cache minimum. */
const TASK = `Fix the failing test. ${Array.from({ length: 700 }, (_, i) => `detail${i}`).join(' ')}`;

/** `STEPS` steps of a thought and a call of `fetch_logs` (results of 2-4 KB), then the answer; counted by calls, as compactions remove steps. */
function loopScript(): ModelScript {
  let step = 0;
  return () => {
    if (step >= STEPS) return { content: { role: 'model', parts: [{ text: 'The failing test is fixed.' }] } };
    const call = { name: 'fetch_logs', args: { size: 2_000 + ((step * 523) % 2_000), seed: step + 1 } };
    const thought = `Step ${step + 1}: ${Array.from({ length: 150 }, (_, i) => `reason${step}x${i}`).join(' ')}`;
    step++;
    return { content: { role: 'model', parts: [{ text: thought }, { functionCall: call }] } };
  };
}

const summaryOf = (contents: readonly Content[]): string | undefined =>
  contents.map((content) => contentsText([content])).find((text) => text.startsWith(SUMMARY_MARKER));

describe('compactions inside one long turn', () => {
  it('should keep the task ahead of the summary, so each compaction is served the cached head', async () => {
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer() });
    const h = createHarness({ window: WINDOW, ratio: 1.2, script: loopScript(), plugins: [guard] });
    const session = await h.startSession();
    await h.runTurns(session.id, 1, { ask: TASK });
    const requests = h.model.requests.filter((request) => !request.rejected);
    expect(requests).toHaveLength(STEPS + 1);

    const task = requests[0]!.contents[0]!;
    expect(contentsText([task])).toContain('Fix the failing test.');
    let compactions = 0;
    for (let i = 1; i < requests.length; i++) {
      const { contents, cachedPromptTokens } = requests[i]!;
      expect(pairingViolations(contents)).toEqual([]);
      // The task leads every request, summarized or not.
      expect(contents[0]).toEqual(task);
      const summary = summaryOf(contents);
      if (summary === undefined || summary === summaryOf(requests[i - 1]!.contents)) continue;
      compactions++;
      // A new summary: the summary is the second content, and the provider served the task from its cache.
      expect(contentsText([contents[1]!])).toBe(summary);
      expect(cachedPromptTokens).toBeGreaterThanOrEqual(requests[0]!.promptTokens * 0.9);
    }
    expect(compactions).toBeGreaterThanOrEqual(2);
  });
});
