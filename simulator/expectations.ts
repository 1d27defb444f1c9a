/**
 * The claims a scenario's name makes, checked on the ContextGuard run (see
 * `ScenarioExpectations`). Each unmet claim is one violation, in words.
 */
import type { CallRecord } from './call-record.js';
import type { ScenarioExpectations, ToolWorkExpectations } from './scenario-types.js';
import { budgetLineViolations } from './budget-line-work.js';
import type { ToolWorkFacts } from './tool-work.js';

export interface RunFacts {
  /** The guard's strategy (`threshold`, `sliding-window`). */
  readonly strategy: string;
  /** Whether claims about compaction apply (false for baselines and for the guard's defaults, whose truncation pre-empts it). */
  readonly checksCompactionClaims: boolean;
  /**
   * Whether claims about sizes apply: they are written for the seed's ratio
   * ground truth, and a real tokenizer sizes the same characters differently.
   */
  readonly checksSizeClaims: boolean;
  readonly window: number;
  readonly calls: readonly CallRecord[];
  readonly compactions: number;
  /** Maskings of old tool results: with compactions, the times the context was reduced. */
  readonly maskings?: number;
  readonly compactionsByAgent: ReadonlyMap<string, number>;
  readonly agents: readonly string[];
  readonly rejected: number;
  /** Calls the summarizer received. */
  readonly summarizerCalls?: number;
  /** A tool-work scenario's facts. */
  readonly toolWork?: ToolWorkFacts | undefined;
}

function countsDiffer(
  label: string,
  expected: Readonly<Record<string, number>>,
  got: Readonly<Record<string, number>>,
): string[] {
  return Object.entries(expected)
    .filter(([name, count]) => (got[name] ?? 0) !== count)
    .map(([name, count]) => `expected ${count} ${label} of ${name}, got ${got[name] ?? 0}`);
}

/** A tool-work scenario's claims: the value recovered, and the recall and tool calls it took. */
function toolWorkViolations(expect: ToolWorkExpectations, facts: ToolWorkFacts | undefined): string[] {
  if (!facts) return ['expected tool-work facts; the run has none'];
  const violations: string[] = [];
  if (!facts.answer.includes(expect.answerContains))
    violations.push(`expected the answer to contain ${expect.answerContains}; it was "${facts.answer.slice(0, 120)}"`);
  if (expect.lostAtQuestion && !facts.lostAtQuestion)
    violations.push('scenario too mild: the asked value was still in the request when the question came');
  const recalls = facts.recallResultChars.length;
  if (expect.recallCalls !== undefined && recalls !== expect.recallCalls)
    violations.push(`expected ${expect.recallCalls} recall call(s), got ${recalls}`);
  const largest = Math.max(0, ...facts.recallResultChars);
  if (expect.maxRecallResultChars !== undefined && largest > expect.maxRecallResultChars)
    violations.push(
      `expected every recall answer within ${expect.maxRecallResultChars} characters; the largest was ${largest}`,
    );
  violations.push(...countsDiffer('call(s)', expect.toolCalls ?? {}, facts.toolCalls));
  violations.push(...countsDiffer('real run(s)', expect.toolRuns ?? {}, facts.toolRuns));
  if (expect.storedAnswers !== undefined) {
    const counted = facts.status?.storedAnswers ?? 0;
    if (counted !== expect.storedAnswers || facts.storedAnswerAges.length !== expect.storedAnswers)
      violations.push(
        `expected ${expect.storedAnswers} call(s) answered from the stored result, with an age; status() counted ${counted}, marked answers ${facts.storedAnswerAges.length}`,
      );
  }
  if (expect.recallLineReads !== undefined && (facts.status?.recallLineReads ?? 0) !== expect.recallLineReads)
    violations.push(
      `expected status() to count ${expect.recallLineReads} recall line read(s), got ${facts.status?.recallLineReads ?? 0}`,
    );
  if (expect.budgetLine !== undefined) violations.push(...budgetLineViolations(expect.budgetLine, facts.budgetLine));
  return violations;
}

export function expectationViolations(expect: ScenarioExpectations | undefined, facts: RunFacts): string[] {
  const violations: string[] = [];
  const allowed = expect?.maxRejected ?? 0;
  if (facts.rejected > allowed) {
    const which = facts.calls
      .filter((call) => call.rejected)
      .map((call) => `call ${call.index} (turn ${call.turn}, ${call.agent}, ${call.promptTokens} tokens)`);
    violations.push(
      `overflow: ${facts.rejected} request(s) over the ${facts.window}-token window reached the model (allowed ${allowed}): ${which.join('; ')}`,
    );
  }
  if (!expect) return violations;
  if (expect.parallelResponses !== undefined) {
    const most = Math.max(0, ...facts.calls.map((call) => call.maxParallelResponses));
    if (most < expect.parallelResponses) {
      violations.push(
        `expected a content with ${expect.parallelResponses} merged parallel responses; the most was ${most}`,
      );
    }
  }
  if (expect.currentRequestIntact) {
    const broken = facts.calls
      .filter((call) => !call.requestIntact)
      .map((call) => `call ${call.index} (turn ${call.turn}, step ${call.step})`);
    if (broken.length > 0)
      violations.push(
        `expected the user's message intact in every request of its turn; it was cut or missing in ${broken.length}: ${broken.slice(0, 5).join('; ')}`,
      );
  }
  if (expect.toolWork) violations.push(...toolWorkViolations(expect.toolWork, facts.toolWork));
  if (!facts.checksSizeClaims) return violations;
  if (expect.rawOverWindow) {
    const over = facts.calls.filter((call) => call.producedTokens > facts.window).length;
    if (over < expect.rawOverWindow.min) {
      violations.push(
        `scenario too mild: expected ADK to build at least ${expect.rawOverWindow.min} request(s) over the window (tool results at full size), got ${over}`,
      );
    }
  }
  if (expect.peakBelow !== undefined) {
    const peak = Math.max(0, ...facts.calls.map((call) => call.promptTokens));
    if (peak >= expect.peakBelow * facts.window) {
      violations.push(
        `expected every request under ${Math.round(expect.peakBelow * 100)}% of the window; the largest was ${peak} tokens`,
      );
    }
  }
  if (expect.summarizerCalls && (facts.summarizerCalls ?? 0) > expect.summarizerCalls.max) {
    violations.push(`expected at most ${expect.summarizerCalls.max} summarizer call(s), got ${facts.summarizerCalls}`);
  }
  if (!facts.checksCompactionClaims) return violations;
  const { compactions } = expect;
  // A claim that the guard must act is met by a summary or a masking; the cap below counts summaries only.
  const reductions = facts.compactions + (facts.maskings ?? 0);
  if (compactions?.min !== undefined && reductions < compactions.min) {
    violations.push(`expected at least ${compactions.min} compaction(s) or masking(s), got ${reductions}`);
  }
  // An upper bound describes compaction under token pressure only: the sliding window also compacts on its schedule.
  if (compactions?.max !== undefined && facts.strategy === 'threshold' && facts.compactions > compactions.max) {
    violations.push(`expected at most ${compactions.max} compaction(s), got ${facts.compactions}`);
  }
  if (expect.shrunkToolResult && !facts.calls.some((call) => call.shrunkToolResults > 0)) {
    violations.push('expected a tool result too large for the window to reach the model shrunk; none was');
  }
  if (expect.fallbackSummary && !facts.calls.some((call) => call.compacted && call.fallbackSummary)) {
    violations.push('expected a compaction with the mechanical fallback summary; there was none');
  }
  if (expect.compactedMidChain && !facts.calls.some((call) => (call.compacted || call.masked) && call.step > 0)) {
    violations.push("expected a compaction in the middle of a tool chain; every compaction was on a turn's first call");
  }
  if (expect.everyAgentCompacted) {
    for (const agent of facts.agents) {
      if ((facts.compactionsByAgent.get(agent) ?? 0) === 0)
        violations.push(`expected agent '${agent}' to compact at least once; it never did`);
    }
  }
  return violations;
}
