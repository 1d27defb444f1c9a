import { describe, expect, expectTypeOf, it } from 'vitest';
import { compactionSteps } from '../../../test/support/compaction-steps.js';
import type { SummaryOutcome } from '../../summary/summarizer.js';
import { buildCompactionOutcome } from '../../pipeline/compaction-outcome.js';
import type { CompactionOutcome } from '../../pipeline/guard-request.js';
import type { CompactionRecord } from '../../records/compaction-record.js';
import { buildCompactionRecord, type CompactionShellFacts } from './build-compaction-record.js';

/** An outcome from the real builder, so a field the builder gains is seen here. */
function outcomeOf(verdict: SummaryOutcome): CompactionOutcome {
  return buildCompactionOutcome({ ...compactionSteps(verdict), reason: 'forced' });
}

const SHELL: CompactionShellFacts = {
  agentName: 'worker',
  sessionId: 's-1',
  invocationId: 'inv-1',
  strategy: 'threshold',
  coveredEvents: { firstEventId: 'e3', lastEventId: 'e8', count: 5 },
  summarizerName: 'llm-summarizer',
  createdAt: 1_000,
  durationMs: 42,
  withDetail: true,
};

const VERDICTS: Record<string, SummaryOutcome> = {
  summary: { ok: true, text: 't', truncated: true, promptTokens: 900, outputTokens: 80 },
  fallback: { ok: false, kind: 'timeout', reason: 'timed out after 5 ms' },
};

/** The outcome's figures that stay in the core: where the kept user message sits is not audited. */
const NOT_RECORDED = ['keptAt'] as const;

describe('buildCompactionRecord', () => {
  it('should carry every figure of the outcome, by name, in its type', () => {
    expectTypeOf<Exclude<keyof CompactionOutcome, keyof CompactionRecord>>().toEqualTypeOf<
      (typeof NOT_RECORDED)[number]
    >();
  });

  for (const [name, verdict] of Object.entries(VERDICTS)) {
    it(`should carry every figure of the outcome of a ${name} unchanged`, () => {
      const outcome = outcomeOf(verdict);
      const record = buildCompactionRecord(outcome, SHELL) as unknown as Record<string, unknown>;
      const figures = Object.entries(outcome).filter(([key]) => !(NOT_RECORDED as readonly string[]).includes(key));
      expect(figures.length).toBeGreaterThan(10);
      // A call that summarized itself has no wait of its own in the outcome: it waited for the whole compaction.
      const expected = (key: string, value: unknown): unknown =>
        key === 'waitedMs' && value === undefined ? SHELL.durationMs : value;
      for (const [key, value] of figures)
        expect({ key, value: record[key] }).toEqual({ key, value: expected(key, value) });
    });
  }

  it("should carry a prepared summary's wait, not the compaction's duration", () => {
    const outcome = { ...outcomeOf(VERDICTS['summary']!), prepared: true, waitedMs: 7 };
    expect(buildCompactionRecord(outcome, SHELL)).toMatchObject({ prepared: true, waitedMs: 7 });
  });

  it('should add what the shell knows and keep the error text out unless asked', () => {
    const outcome = outcomeOf({ ok: false, kind: 'failed', reason: 'the provider quoted: "my password"' });
    const record = buildCompactionRecord(outcome, { ...SHELL, withDetail: false });
    expect(record).toMatchObject({
      version: 1,
      id: 'inv-1:worker:1000',
      agentName: 'worker',
      sessionId: 's-1',
      invocationId: 'inv-1',
      strategy: 'threshold',
      coveredContents: { from: 3, to: 9 },
      coveredEvents: SHELL.coveredEvents,
      summarizer: 'fallback',
      fallbackReason: 'failed',
      compressionRatio: 2.81,
      durationMs: 42,
      createdAt: 1_000,
    });
    expect(JSON.stringify(record)).not.toContain('password');
    expect(buildCompactionRecord(outcomeOf(VERDICTS.summary!), SHELL).summarizer).toBe('llm-summarizer');
  });
});
