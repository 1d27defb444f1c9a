/**
 * An agent whose every turn brings more than its window before its first call: a merge step after a fan-out. The
 * thirty-fifth outside trial: the merger compacted on each of its 12 calls and `turnsLeft`, the meter and the budget
 * line it was sent said ~19 to ~94 turns left, counted from the growth of what was sent (its summary's).
 */
import { FunctionTool, InMemorySessionService, LlmAgent, ParallelAgent, Runner, SequentialAgent } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import {
  logText,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
  type ModelScript,
} from '../../src/testing/index.js';
import { APP_NAME, errorCodes, runTurn, USER_ID } from '../support/agent-harness.js';

const WINDOW = 16_000;

const model = (script: ModelScript) => new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.8), script });

const fetchLogs = new FunctionTool({
  name: 'fetch_logs',
  description: 'Returns logs.',
  parameters: { type: 'OBJECT', properties: { seed: { type: 'INTEGER' } } } as never,
  execute: (input: unknown) => ({ logs: logText(9_000, (input as { seed?: number } | undefined)?.seed ?? 1) }),
});

function branch(n: number): LlmAgent {
  const script: ModelScript = ({ request, index }) =>
    request.contents.at(-1)?.parts?.some((part) => part.functionResponse)
      ? { content: { role: 'model', parts: [{ text: `Branch ${n} done.` }] } }
      : {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'fetch_logs', args: { seed: n * 100 + index } } }],
          },
        };
  return new LlmAgent({ name: `branch_${n}`, model: model(script), instruction: `Branch ${n}.`, tools: [fetchLogs] });
}

describe('turns left for an agent that compacts at the first call of every turn', () => {
  it('should say none are left, in status() and in the budget line the agent is sent', async () => {
    const mergeModel = model(({ index }) => ({ content: { role: 'model', parts: [{ text: `Merged ${index}.` }] } }));
    const merger = new LlmAgent({ name: 'merger', model: mergeModel, instruction: 'Merge the branch reports.' });
    const fan = new ParallelAgent({ name: 'fan', subAgents: [1, 2, 3, 4].map(branch) });
    const root = new SequentialAgent({ name: 'root', subAgents: [fan, merger] });
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer: new ScriptedSummarizer(),
      agents: { merger: { budgetLine: true } },
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent: root, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    for (let turn = 1; turn <= 5; turn++)
      expect(errorCodes(await runTurn(runner, id, `Turn ${turn}: merge.`))).toEqual([]);
    const stored = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: id });
    const status = guard.status(stored, 'merger');
    expect(status.compactions).toBe(5);
    expect(status.turnsLeft).toBe(0);
    const line = JSON.stringify(mergeModel.requests.at(-1)?.contents.at(-1));
    expect(line).toContain('~0 turns left, compaction near');
  });
});
