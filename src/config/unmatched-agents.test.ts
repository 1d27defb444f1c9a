import { describe, expect, it } from 'vitest';
import { unmatchedAgents } from './unmatched-agents.js';

describe('unmatchedAgents', () => {
  it('should name an entry that matches no agent, list the agents and suggest the one meant', () => {
    const [unmatched, ...rest] = unmatchedAgents(['wroker', 'router'], ['router', 'worker', 'support']);
    expect(rest).toEqual([]);
    expect(unmatched?.key).toBe('wroker');
    expect(unmatched?.message).toContain(
      "agents.wroker names no agent of this app (its agents: 'router', 'worker', 'support')",
    );
    expect(unmatched?.message).toContain("Did you mean 'worker'?");
  });

  it('should not guess when no agent is near, and match names exactly (case included)', () => {
    const unmatched = unmatchedAgents(['billing', 'Worker'], ['worker']);
    expect(unmatched.map((entry) => entry.key)).toEqual(['billing', 'Worker']);
    expect(unmatched[0]?.message).not.toContain('Did you mean');
    expect(unmatched[1]?.message).toContain("Did you mean 'worker'?");
  });

  it('should list at most 12 names and count the rest', () => {
    const names = Array.from({ length: 15 }, (_, i) => `agent_${i}`);
    expect(unmatchedAgents(['zzz'], names)[0]?.message).toContain("'agent_11', and 3 more)");
  });
});
