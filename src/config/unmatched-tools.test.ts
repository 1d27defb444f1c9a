import { describe, expect, it } from 'vitest';
import { unmatchedTools } from './unmatched-tools.js';

describe('unmatchedTools', () => {
  it('should name a key that is no tool of its owner, with the tool it likely meant', () => {
    const [found, ...rest] = unmatchedTools('tools', ['serach', 'fetch_logs'], ['search', 'fetch_logs'], 'this app');
    expect(rest).toEqual([]);
    expect(found?.key).toBe('serach');
    expect(found?.message).toContain(
      "the option tools.serach names no tool of this app (its tools: 'search', 'fetch_logs')",
    );
    expect(found?.message).toContain("Did you mean 'search'?");
  });

  it('should match tool names exactly, and say when the owner has no tool', () => {
    const [found] = unmatchedTools('agents.w.toolOutputTruncation.tools', ['Search'], [], "agent 'w'");
    expect(found?.message).toContain("names no tool of agent 'w' (its tools: none)");
    expect(found?.message).not.toContain('Did you mean');
  });
});
