import { describe, expect, it } from 'vitest';
import { MASKED_RESULT_KEY, placeholder } from './placeholder-text.js';

describe('placeholder of an offloaded result', () => {
  it('should name the artifact whole, and take the excerpt from the rest of the result', () => {
    const name = `context_guard-tool_output-app=shop.${'a'.repeat(12)}-fetch_logs-e-${'b'.repeat(36)}-adk-${'c'.repeat(36)}`;
    const response = {
      logs: 'ERROR disk quota exceeded on vol-7f3a at 10:42',
      full_result_artifact: { name, version: 0, chars: 18_831, read: 'The whole result is stored.' },
    };
    const text = String(placeholder('fetch_logs', response, { recallToolName: 'recall_history' })[MASKED_RESULT_KEY]);
    // The thirtieth outside trial: the name, cut at 120 characters as the excerpt, found nothing when recalled.
    expect(name.length).toBeGreaterThan(120);
    expect(text).toContain(`Stored whole as artifact '${name}'.`);
    expect(text).toContain('Excerpt: ERROR disk quota exceeded on vol-7f3a');
  });

  it('should not say the result can be read back by an agent without a recall tool (trial 42)', () => {
    const response = { logs: 'ERROR disk quota', full_result_artifact: { name: 'context_guard-tool_output-x.json' } };
    const text = String(placeholder('fetch_logs', response, {})[MASKED_RESULT_KEY]);
    expect(text).toContain("Stored whole as artifact 'context_guard-tool_output-x.json' for the application");
    expect(text).toContain('this agent has no tool to read it');
  });
});
