/**
 * A log analyst on a 24,000-token window whose summaries a separate summarizer model writes, masking
 * off: each turn fetches 6 KB of logs, so summary requests come every few turns. Shared by the tests of
 * what a separate summarizer model's rejection teaches.
 */
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, logText, ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { callThenAnswer } from './call-then-answer.js';

/** The agent's model: a 24,000-token window, one 6 KB `fetch_logs` call a turn, then an answer. */
export function logsWorkerModel(): ScriptedLlm {
  return new ScriptedLlm({
    window: 24_000,
    countTokens: ratioTokenCounter(2),
    script: callThenAnswer({
      call: ({ request }) => ({ name: 'fetch_logs', args: { size: 6_000, seed: request.contents.length } }),
      answer: ({ request }) => `Checked: ${logText(200, request.contents.length)}`,
    }),
  });
}

/** The guard on that window with `summarizer` as its summarizer, masking and preparation off. */
export function separateSummarizerGuard(summarizer: ScriptedLlm): ContextGuard {
  return new ContextGuard({
    contextWindow: 24_000,
    summarizer,
    maskKeepRecent: 0,
    prepareTurnsAhead: 0,
    logger: new CapturingLogger(),
  });
}
