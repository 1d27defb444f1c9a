import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { createHarness, runTurn, toolThenAnswerScript } from '../support/agent-harness.js';

const WINDOW = 8_000;

async function runSession(withGuard: boolean, turns: number) {
  const guard = new ContextGuard({ contextWindow: WINDOW });
  const harness = createHarness({
    window: WINDOW,
    ratio: 1.8,
    script: toolThenAnswerScript(3_000),
    plugins: withGuard ? [guard] : [],
  });
  const session = await harness.startSession();
  const errors: string[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const events = await runTurn(harness.runner, session.id, `Turn ${turn}: fetch the logs and tell me what you see.`);
    for (const event of events) if (event.errorCode) errors.push(`${turn}:${event.errorCode}`);
  }
  return { harness, errors, sessionId: session.id };
}

describe('threshold compaction through a real Runner', () => {
  it('should overflow a tool-heavy 30-turn session on an 8k window without the guard', async () => {
    const { harness, errors } = await runSession(false, 30);
    expect(harness.model.rejectedRequests.length).toBeGreaterThan(0);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('should never send an oversized request in the same session with the guard', async () => {
    const { harness, errors } = await runSession(true, 30);
    expect(harness.model.rejectedRequests).toEqual([]);
    expect(errors).toEqual([]);
    const max = Math.max(...harness.model.requests.map((request) => request.promptTokens));
    expect(max).toBeLessThanOrEqual(WINDOW);
    console.log(
      'requests',
      harness.model.requests.length,
      'max',
      max,
      harness.model.requests.map((r) => r.promptTokens).join(','),
    );
  });
});
