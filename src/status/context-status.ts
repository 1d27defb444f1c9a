/**
 * Token status per agent, for people (a one-line meter) and dashboards (plain
 * data), read from session state only, so it works on any stored session.
 */
import type { AgentUsageFigures } from '../usage/agent-usage-figures.js';
import { decodeSummaryRecord, type SummaryRecord } from '../summary/stored-summary.js';
import { renderFacts } from '../memory/durable-facts.js';
import { decodeUsageRecord, type UsageRecord } from '../usage/stored-usage.js';
import { agentOfUsageKey, stateKeysFor } from '../state/keys.js';
import { decodeCompactionRecord, type CompactionRecord } from '../records/compaction-record.js';
import { correctionFactor } from '../estimate/calibration.js';
import { stepsLeftAt, turnsLeftAt } from '../budget/budget-line.js';
import { countedLast } from '../usage/calibration.js';

/** An agent's token status in a session, as `guard.status()` returns it (docs/observability.md). */
export interface AgentContextStatus extends AgentUsageFigures {
  readonly agentName: string;
  /**
   * False when the session holds no guard state for this agent: no model call of an agent by
   * this name was guarded in this session (a misspelt name, or an agent that has not run yet).
   * Every figure is then zero or unknown, and means nothing.
   */
  readonly known: boolean;
  /** Real prompt tokens of the last call, when the provider reported them. */
  readonly lastRealPromptTokens?: number | undefined;
  /** Calibrated estimate of the last request sent. */
  readonly estimatedTokens?: number | undefined;
  /**
   * The last request sent, in tokens: the provider's count of it once reported (`lastRealPromptTokens`), else
   * `estimatedTokens`. Before any real count the estimate carries the default correction, a guess that errs high.
   */
  readonly usedTokens?: number | undefined;
  /** usedTokens / window, in percent (0 when unknown). */
  readonly percentUsed: number;
  /**
   * Turns until the threshold at the average turn size so far, when known: from `estimatedTokens`, what the guard
   * reduces by, except right after a call sent before any count, from the provider's count of it (`usedTokens`).
   */
  readonly turnsLeft?: number | undefined;
  /**
   * When the last turn made more than one model call (a tool loop): calls left before a request meets the threshold
   * at what one step adds, as the budget line and `context_status` say it inside the loop.
   */
  readonly stepsLeft?: number | undefined;
  readonly averageTurnTokens?: number | undefined;
  /**
   * Where the counters and the usage totals come from: `'events'`, the sums of the per-call
   * records on the session's events (exact under concurrent turns and replicas); `'state'`, the
   * agent's usage record, when the session comes without its events (as `listSessions` returns
   * it) or they hold fewer calls of the agent than that record (see status/counted-status.ts).
   */
  readonly countsFrom: 'events' | 'state';
  /** Whether the estimate is calibrated by a real count (else the default correction applies). */
  readonly calibrated: boolean;
  /**
   * The correction factor in force, clamped to 1–5: what the next estimate is multiplied by (the
   * estimator may raise it for a request with a larger share of content). Undefined before any
   * real count, while `defaultCorrection` applies.
   */
  readonly correction?: number | undefined;
  /**
   * The last real prompt count over the estimate of that same request, unclamped (0.89, 6.67):
   * how far the estimator was off, which `correction` follows within its clamp. Undefined when
   * there is no such pair (no count reported yet, or the count was cleared by a compaction).
   */
  readonly realToEstimateRatio?: number | undefined;
  /**
   * The summary sent now: `chars` of its text and of the durable facts' block sent verbatim after it (not the
   * header or the continuation around them), `facts` how many such facts it carries.
   */
  readonly summary?:
    | { readonly chars: number; readonly facts: number; readonly fallback: boolean; readonly covered: number }
    | undefined;
  readonly lastCompaction?: CompactionRecord | undefined;
  /** Running totals of the agent's own calls' reported usage: prompt tokens (cached + uncached) and output tokens. */
  readonly promptTokens: number;
  readonly cachedPromptTokens: number;
  readonly uncachedPromptTokens: number;
  readonly outputTokens: number;
  /** Calls whose model has no price: `costUsd` leaves them out. */
  readonly unpricedCalls: number;
  /**
   * The summarizer's calls for compactions, apart from the agent's (not in the four token figures
   * above): how many, their prompt tokens, the part of those the provider served from its cache (a
   * summary over the agent's own model continues the agent's request to read its cached prefix), their
   * output tokens and USD (also in `costUsd`; undefined until one was priced). `unpricedSummarizerCalls`:
   * calls whose cost is unknown, because the summarizer reported no usage (a `Summarizer` of your own may
   * not, a failed call does not) or its model has no price.
   */
  readonly summarizerCalls: number;
  readonly summarizerPromptTokens: number;
  readonly summarizerCachedPromptTokens: number;
  readonly summarizerOutputTokens: number;
  readonly summarizerCostUsd?: number | undefined;
  readonly unpricedSummarizerCalls: number;
  /**
   * True while the next summary is prepared in the background (`prepareTurnsAhead`), by any replica:
   * its claim is in the session's state until the summary is written there. A claim older than
   * `summarizerTimeoutMs` + `preparedSummaryWaitMs` is of a replica that is gone and no longer counts.
   */
  readonly preparing: boolean;
  /**
   * Calls of a read-only tool answered from the stored result of the same call (tool calls not run),
   * and recall reads by pattern or line range, counted from the session's events (0 without them).
   */
  readonly storedAnswers: number;
  readonly recallLineReads: number;
  /** True when the agent's last call went through Gemini's Interactions API (its history held server-side). */
  readonly interactionsApi: boolean;
  /**
   * Interactions API: calibrated estimate of the chain the server holds after the last call (every
   * content since the chain began, system instruction and tools included); undefined otherwise.
   */
  readonly serverChainTokens?: number | undefined;
  /** Interactions API: server-side chains the guard started afresh (at the threshold or after an overflow). */
  readonly freshChains: number;
  /** Calls of the `context_status` tool (`budgetLine`), counted from the session's events (0 without them). */
  readonly contextStatusCalls: number;
  /**
   * Tool results the guard cut to their limits (`toolOutputTruncation`), from the agent's state: a count each cut
   * adds to with the tool's response event (two replicas cutting at the same moment may count one).
   */
  readonly toolResultsCut: number;
  /** Of those, results stored whole as an artifact the model reads back (offloaded), counted from the session's events (0 without them). */
  readonly offloadedResults: number;
}

/** The count of the agent's tool-truncation record (adk/tools/output-truncation.ts); 0 when absent or unreadable. */
function toolResultsCut(record: unknown): number {
  const count = (record as { count?: unknown } | null | undefined)?.count;
  return typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 0;
}

/** Agents that have ContextGuard state in `state`. */
export function guardedAgents(state: Readonly<Record<string, unknown>>): string[] {
  const names: string[] = [];
  for (const key of Object.keys(state)) {
    const name = agentOfUsageKey(key);
    if (name) names.push(name);
  }
  return names.sort();
}

export function agentStatus(
  state: Readonly<Record<string, unknown>>,
  agentName: string,
  preparing = false,
): AgentContextStatus {
  const keys = stateKeysFor(agentName);
  const usage = decodeUsageRecord(state[keys.usage]);
  const summary = decodeSummaryRecord(state[keys.summary]);
  const lastCompaction = decodeCompactionRecord(state[keys.lastCompaction]);
  const estimated = usage.lastCalibrated;
  const inForce = correctionFactor(usage);
  const correction = inForce.calibrated ? inForce.factor : undefined;
  const { used, percentUsed, threshold, hardLimit, turnsLeft, stepsLeft } = usedFigures(usage, inForce.calibrated);
  const ratio = usage.realPromptTokens && usage.lastEstimate ? usage.realPromptTokens / usage.lastEstimate : undefined;
  return {
    agentName,
    known: state[keys.usage] !== undefined && state[keys.usage] !== null,
    lastRealPromptTokens: usage.realPromptTokens,
    estimatedTokens: estimated,
    usedTokens: used,
    window: usage.window,
    windowSource: usage.windowSource,
    threshold,
    hardLimit,
    percentUsed,
    turnsLeft,
    stepsLeft,
    averageTurnTokens: usage.averageTurnTokens === undefined ? undefined : Math.round(usage.averageTurnTokens),
    modelCalls: usage.modelCalls,
    invocations: usage.invocations,
    compactions: usage.compactions,
    maskings: usage.maskings,
    discardedCompactions: usage.discardedCompactions,
    droppedPreparations: usage.droppedPreparations,
    toolResultsCut: toolResultsCut(state[keys.toolTruncations]),
    rejectedCalls: usage.rejectedCalls,
    retriedCalls: usage.retriedCalls,
    overLimitCalls: usage.overLimitCalls,
    budgetLines: usage.budgetLines,
    budgetLineTokens: usage.budgetLineTokens,
    countsFrom: 'state',
    calibrated: correction !== undefined,
    correction: correction === undefined ? undefined : Math.round(correction * 100) / 100,
    realToEstimateRatio: ratio === undefined ? undefined : Math.round(ratio * 100) / 100,
    summary: summary ? summaryFigures(summary) : undefined,
    lastCompaction,
    promptTokens: usage.billedPromptTokens ?? 0,
    cachedPromptTokens: usage.billedCachedPromptTokens ?? 0,
    uncachedPromptTokens: (usage.billedPromptTokens ?? 0) - (usage.billedCachedPromptTokens ?? 0),
    outputTokens: usage.billedOutputTokens ?? 0,
    costUsd: usage.costUsd,
    unpricedCalls: usage.unpricedCalls ?? 0,
    ...summarizerFigures(usage),
    preparing,
    storedAnswers: 0,
    recallLineReads: 0,
    interactionsApi: usage.interactionsApi === true,
    serverChainTokens: usage.serverChainTokens,
    freshChains: usage.freshChains ?? 0,
    contextStatusCalls: 0,
    offloadedResults: 0,
  };
}

/** The summarizer's calls as the usage record counts them. */
function summarizerFigures(usage: UsageRecord) {
  return {
    summarizerCalls: usage.summarizerCalls ?? 0,
    summarizerPromptTokens: usage.summarizerPromptTokens ?? 0,
    summarizerCachedPromptTokens: usage.summarizerCachedPromptTokens ?? 0,
    summarizerOutputTokens: usage.summarizerOutputTokens ?? 0,
    summarizerCostUsd: usage.summarizerCostUsd,
    unpricedSummarizerCalls: usage.unpricedSummarizerCalls ?? 0,
  };
}

/** How much of the window the last request used, and the turns left to the threshold the next call is held to. */
function usedFigures(usage: UsageRecord, calibrated: boolean) {
  const used = countedLast(usage) ?? usage.lastCalibrated;
  const percentUsed = used !== undefined && usage.window ? Math.round((used / usage.window) * 1000) / 10 : 0;
  // The last call's threshold was capped for want of a count: a count has come, the next call is held to this.
  const threshold = (calibrated ? usage.calibratedThreshold : undefined) ?? usage.threshold;
  // The hard limit is never below the threshold (compute-budget.ts): the next call's is raised with it.
  const hardLimit = usage.hardLimit === undefined ? undefined : Math.max(usage.hardLimit, threshold ?? 0);
  return {
    used,
    percentUsed,
    threshold,
    hardLimit,
    turnsLeft: turnsLeftAt(pacedBy(usage, used), threshold, usage, hardLimit),
    stepsLeft: stepsLeftAt(pacedBy(usage, used), threshold, usage, hardLimit),
  };
}

/**
 * What `turnsLeft` counts from: what the guard reduces by, its calibrated estimate (a callback after it may send
 * less), but after a call sent before any count, whose estimate carried the default guess, the provider's count.
 */
function pacedBy(usage: UsageRecord, used: number | undefined): number | undefined {
  return usage.calibratedThreshold === undefined ? (usage.lastCalibrated ?? used) : used;
}

function compact(tokens: number): string {
  if (tokens >= 1_000_000) return `${Math.round(tokens / 100_000) / 10}M`.replace('.0M', 'M');
  if (tokens >= 1_000) return `${Math.round(tokens / 1_000)}K`;
  return String(tokens);
}

/** `1 turn`, `2 turns`. */
function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * A one-line meter such as `45K/1M (4.5%) ~450 turns left`, with `, preparing a summary` while one is
 * prepared in the background; a window the user
 * did not set and the registry did not know says where it came from:
 * `7K/8K learned (87.5%)`, `8K/128K default (6.6%)`.
 */
export function formatContextMeter(status: AgentContextStatus): string {
  // A status a caller did not get from `status()` (an empty list's first entry): said, not thrown.
  if (typeof status !== 'object' || status === null) return 'no status';
  if (!status.known) return `no guarded call of agent '${status.agentName}' in this session`;
  // The figure `percentUsed` and `turnsLeft` are taken from: the last request sent, as counted or estimated.
  const used = compact(status.usedTokens ?? status.estimatedTokens ?? status.lastRealPromptTokens ?? 0);
  const source =
    status.windowSource === 'learned' || status.windowSource === 'default' ? ` ${status.windowSource}` : '';
  const window = status.window ? `${compact(status.window)}${source}` : '?';
  const turns = status.turnsLeft === undefined ? '' : ` ~${counted(status.turnsLeft, 'turn')} left`;
  const compactions = status.compactions > 0 ? `, ${counted(status.compactions, 'compaction')}` : '';
  const preparing = status.preparing ? ', preparing a summary' : '';
  return `${used}/${window} (${status.percentUsed}%)${turns}${compactions}${preparing}`;
}

/** What `status()` says of the stored summary: the characters sent as its body (text and facts' block). */
function summaryFigures(summary: SummaryRecord): NonNullable<AgentContextStatus['summary']> {
  const facts = summary.facts ?? [];
  return {
    chars: summary.text.length + renderFacts(facts).length,
    facts: facts.length,
    fallback: summary.fallback,
    covered: summary.covered,
  };
}
