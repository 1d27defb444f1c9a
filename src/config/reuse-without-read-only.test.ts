import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../context-guard.js';
import { CapturingLogger } from '../testing/capturing-logger.js';
import { reuseWithoutReadOnly } from './reuse-without-read-only.js';

describe('reuseWithoutReadOnly', () => {
  it('should name each declaration whose reuseResult is ignored, an agent entry merged over the global one', () => {
    const warnings = reuseWithoutReadOnly({
      tools: {
        search: { reuseResult: true },
        lookup: { readOnly: true, reuseResult: true },
        fetch: { readOnly: true },
      },
      agents: {
        worker: { tools: { fetch: { reuseResult: true }, lookup: { readOnly: false } } },
        helper: { tools: { search: { readOnly: true } } },
      },
    });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain("tools['search'] sets reuseResult without readOnly: true");
    expect(warnings[1]).toContain("agents['worker'].tools['lookup']");
    expect(reuseWithoutReadOnly({})).toEqual([]);
  });

  it('should be said once when the guard is made, and never for a declaration that counts', () => {
    const logger = new CapturingLogger();
    new ContextGuard({ logger, tools: { search: { reuseResult: true } } });
    expect(logger.matching('reuseResult without readOnly')).toHaveLength(1);
    const quiet = new CapturingLogger();
    new ContextGuard({ logger: quiet, tools: { search: { readOnly: true, reuseResult: true } } });
    expect(quiet.matching('reuseResult')).toEqual([]);
  });
});
