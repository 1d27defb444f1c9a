/** ContextGuard's own afterToolCallback: oversized tool results are cut, recorded, and configurable per agent. */
import { describe, expect, it } from 'vitest';
import { ContextGuard, type ContextGuardOptions, type ToolTruncationRecord } from '../../src/index.js';
import { stateKeysFor } from '../../src/internal.js';
import { createHarness, runTurn, toolThenAnswerScript } from '../support/agent-harness.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';

/** One turn whose tool returns a 60 KB log, on a 200k window; returns the stored session and its tool result. */
async function bigLogTurn(options: ContextGuardOptions) {
  const guard = new ContextGuard({ contextWindow: 200_000, summarizer: new ScriptedSummarizer(), ...options });
  const harness = createHarness({
    window: 200_000,
    ratio: 1.8,
    script: toolThenAnswerScript(60_000),
    plugins: [guard],
  });
  const session = await harness.startSession();
  await runTurn(harness.runner, session.id, 'Fetch the big log.');
  const stored = await harness.storedSession(session.id);
  const response = stored.events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse)!;
  return { harness, stored, response };
}

describe('tool output truncation in the guard', () => {
  it('should cut a 60 KB tool result before it is stored or sent, and record it', async () => {
    const records: (ToolTruncationRecord & { agentName: string })[] = [];
    const { harness, stored, response } = await bigLogTurn({
      onToolTruncation: (record) => void records.push(record),
    });
    expect(records).toHaveLength(1);
    expect(records[0]!.tool).toBe('fetch_logs');
    expect(records[0]!.originalBytes).toBeGreaterThan(60_000);
    expect(records[0]!.keptBytes).toBeLessThanOrEqual(10 * 1024);
    expect(JSON.stringify(response.functionResponse!.response).length).toBeLessThanOrEqual(10 * 1024);
    expect(JSON.stringify(response.functionResponse!.response)).toMatch(/omitted/);
    expect(stored.state[stateKeysFor('worker').toolTruncations]).toMatchObject({
      count: 1,
      last: { tool: 'fetch_logs' },
    });
    // The model got the cut result too.
    const sent = harness.model.requests[1]!.contents.flatMap((content) => content.parts ?? []).find(
      (part) => part.functionResponse,
    )!;
    expect(JSON.stringify(sent.functionResponse!.response).length).toBeLessThanOrEqual(10 * 1024);
  });

  it('should leave results alone for an agent whose policy turns truncation off', async () => {
    const { response } = await bigLogTurn({ agents: { worker: { toolOutputTruncation: false } } });
    expect((response.functionResponse!.response as { logs: string }).logs).toHaveLength(60_000);
  });
});
