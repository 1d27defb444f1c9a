/**
 * ADK labels every model call with the agent's name (`adk_agent_name`; billing labels on Vertex AI). The guard's
 * summary calls go straight to the model: a summarizer model of the guard's options carries the labels of the
 * agent it summarizes for, so the provider's bill charges each summary to its agent (the twenty-sixth outside
 * trial: 44 of 60 summary calls of a fan-out reached the model with no label).
 */
import { describe, expect, it } from 'vitest';
import { faultHarness } from '../support/fault-harness.js';

describe("the guard's summary calls", () => {
  it('should carry the labels of the agent they summarize for', async () => {
    const h = await faultHarness({ agentName: 'researcher' });
    await h.turnsUntilCompaction();
    expect(h.summarizer.calls.length).toBeGreaterThan(0);
    for (const call of h.summarizer.calls) expect(call.labels).toMatchObject({ adk_agent_name: 'researcher' });
  });
});
