/**
 * Pieces for multi-agent tests on real Runners: a strict scripted model per
 * agent (named `scripted-<agent>`, so the guard's `modelWindows` can tell them
 * apart), a guard that records its compactions, and one check of everything
 * every model received.
 */
import { ContextGuard, type CompactionRecord, type ContextGuardOptions } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ScriptedSummarizerLlm, type ModelScript } from '../../src/testing/index.js';
import { proportionalCounter } from './proportional-counter.js';
import { pairingViolations, startViolations } from './request-invariants.js';

/** The strict model of agent `name`: rejects over `window`, counts 1.3 real tokens per estimated one. */
export function agentModel(name: string, window: number, script: ModelScript): ScriptedLlm {
  return new ScriptedLlm({ model: `scripted-${name}`, window, countTokens: proportionalCounter(1.3), script });
}

export interface RecordingGuard {
  readonly guard: ContextGuard;
  readonly records: CompactionRecord[];
  readonly logger: CapturingLogger;
}

/** A guard with a scripted summarizer, a capturing logger and its compaction records, over `options`. */
export function recordingGuard(options: ContextGuardOptions = {}): RecordingGuard {
  const records: CompactionRecord[] = [];
  const logger = new CapturingLogger();
  const guard = new ContextGuard({
    // The records prove each agent was guarded and summaries are what must stay apart: masking alone
    // (which makes no record and no summary) would make room in these sessions.
    maskKeepRecent: 0,
    summarizer: new ScriptedSummarizerLlm(),
    modelWindows: { 'scripted-summarizer': 32_000 },
    logger,
    onCompaction: (record) => void records.push(record),
    ...options,
  });
  return { guard, records, logger };
}

/** Every request any of `models` rejected (over its window) or received malformed (pairing, start). */
export function modelProblems(...models: ScriptedLlm[]): string[] {
  return models.flatMap((model) =>
    model.requests.flatMap((request) => [
      ...(request.rejected ? [`${model.model} call ${request.index}: rejected at ${request.promptTokens} tokens`] : []),
      ...[...pairingViolations(request.contents), ...startViolations(request.contents)].map(
        (problem) => `${model.model} call ${request.index}: ${problem}`,
      ),
    ]),
  );
}
