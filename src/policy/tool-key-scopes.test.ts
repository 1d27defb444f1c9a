import { describe, expect, it } from 'vitest';
import { toolKeyScopes } from './tool-key-scopes.js';

describe('toolKeyScopes', () => {
  it('should list every option keyed by tool name that has keys, global and per agent, with its agent', () => {
    const scopes = toolKeyScopes({
      tools: { search: { readOnly: true } },
      toolOutputTruncation: false,
      agents: {
        worker: { toolOutputTruncation: { maxBytes: 4_096, tools: { fetch_logs: false, read: {} } } },
        idle: { tools: {} },
      },
    });
    expect(scopes).toEqual([
      { option: 'tools', agentName: undefined, keys: ['search'] },
      { option: 'agents.worker.toolOutputTruncation.tools', agentName: 'worker', keys: ['fetch_logs', 'read'] },
    ]);
  });
});
