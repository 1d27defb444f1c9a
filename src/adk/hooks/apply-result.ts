/**
 * The shell's second half: applies the core's result to ADK's `Context` and `LlmRequest`
 * (the state delta, `request.contents`) and reports a compaction.
 */
import { currentCaller } from '../runtime/agent-tool-caller.js';
import type { Context, LlmRequest } from '@google/adk';
import type { GuardRequestResult } from '../../pipeline/guard-request.js';
import type { SummaryRecord } from '../../summary/stored-summary.js';
import type { MaskingStep } from '../../pipeline/contract.js';
import { billedWhenSettled, type SummarizerReport } from '../../pipeline/compaction-outcome.js';
import { updateUsage, writeLastCompaction, writeStateChange } from '../runtime/state-writer.js';
import { billSummarizerUsage, recordedSummarizerBill } from '../../cost/bill-summary.js';
import { recordSummarizerTelemetry } from '../../telemetry/bill-metrics.js';
import {
  recordFreshChain,
  recordMasking,
  recordServerChain,
  recordUtilization,
} from '../../telemetry/guard-metrics.js';
import type { GuardLogger, ResolvedPolicy } from '../../options.js';
import type { CompactionReporter } from './compaction-reporter.js';
import type { KeyedQueue } from './keyed-queue.js';
import type { PendingCalls } from './pending-calls.js';
import type { CallReturns } from '../runtime/call-returns.js';
import type { PreparedSummaries } from '../runtime/prepared-summaries.js';
import type { ReplicaPrepared } from '../runtime/replica-prepared.js';
import { prepareSummary } from '../../preparation/prepared-summary.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import type { ReadRequest } from './read-request.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import type { BudgetLine } from '../../budget/budget-line.js';
import { budgetLineContent } from '../../budget/budget-line.js';
import { rememberBudgetFigures } from '../tools/context-status-tool.js';
import { recordBudgetLine } from '../../telemetry/budget-metrics.js';
import { wastedPreparation, withWastedPreparation } from '../../pipeline/wasted-preparation.js';

/** What applying a result uses, built once per guard. */
export interface ResultAppliers {
  readonly logger: GuardLogger;
  readonly queue: KeyedQueue;
  readonly reporter: CompactionReporter;
  /** This call's counts, kept for its response event (records/call-record.ts). */
  readonly calls: PendingCalls;
  /** When this call's model answer is back: a background summary reads its prefix from the cache then. */
  readonly returns: CallReturns;
  readonly prepared: PreparedSummaries;
  readonly replicas: ReplicaPrepared;
  readonly tokenizer: Tokenizer;
}

/** Applies `result` to the agent's state and the request, and reports a compaction. */
export async function applyResult(
  context: Context,
  request: LlmRequest,
  key: string,
  read: ReadRequest,
  result: GuardRequestResult,
  appliers: ResultAppliers,
): Promise<void> {
  const agentName = context.agentName;
  result = countedWaste(agentName, read, result, appliers.logger);
  // The record names its session's app, and a child's the app that called it (status/own-agents.ts).
  const calledFrom = currentCaller()?.appPath.at(-1);
  const usage = { ...result.state.usage, app: context.invocationContext.session.appName, calledFrom };
  writeStateChange(context.state, agentName, { ...result.state, usage }, read.requestId);
  reportSummary(context, key, result, appliers);
  if (result.discardedSummarizer) billDiscarded(context, read, result.discardedSummarizer, appliers.reporter);
  // Background compaction: claimed in this call's state delta, started here, never awaited (adk/runtime/replica-prepared.ts).
  const hooks = appliers.replicas.afterDecision(
    context,
    read.prepared,
    {
      stored: storedNew(result),
      dropped: result.preparedDropped !== undefined,
      preparation: result.preparation,
    },
    {
      waitMs: read.input.policy.preparedSummaryWaitMs,
      summarizerName: read.summarizerName,
      summarizerPricedAs: read.summarizerPricedAs,
    },
  );
  appliers.prepared.afterDecision(
    key,
    agentName,
    read.prepared.local,
    result,
    (preparation) => {
      // Started once the agent's own call of the same prefix has returned, so the provider has it cached.
      const returned = preparation.fromRequest ? appliers.returns.after(context) : Promise.resolve();
      return returned.then(() => prepareSummary(preparation, appliers.tokenizer, read.backgroundSummarize));
    },
    hooks,
  );
  if (result.masking) reportMasking(agentName, result.masking, appliers.logger);
  appliers.calls.stash(context, result.counts);
  if (result.contents) request.contents = result.contents;
  if (result.freshChain) startFreshChain(agentName, request, result.calibrated, appliers.logger);
  if (result.budgetLine) appendBudgetLine(context, request, result.budgetLine);
  recordUtilization(agentName, result.calibrated, result.budget.window);
  if (read.input.interactions) recordServerChain(agentName, result.calibrated);
  if (result.compaction)
    await applyCompaction(context, request, read, result.compaction, appliers.reporter, read.input.policy.strategy);
  if (result.crowdedRoom) appliers.reporter.crowdedRoom(agentName, result.budget.window, result.crowdedRoom);
  if (result.sentWhole) appliers.logger.info(`${LOG_PREFIX} agent '${agentName}': ${result.sentWhole}.`);
  if (result.messageCut) appliers.logger.info(`${LOG_PREFIX} agent '${agentName}': ${result.messageCut}.`);
  if (result.partsCut) appliers.logger.info(`${LOG_PREFIX} agent '${agentName}': ${SHRUNK_NOTE(result.calibrated)}.`);
  if (result.overLimit && result.overLimitNewCause) {
    appliers.logger.warn(
      `${LOG_PREFIX} agent '${agentName}': ${result.overLimit}. Sending it anyway; nothing more can be removed.`,
    );
  }
}

/** The budget line as the request's last content, after everything else; the session's events never see it. */
function appendBudgetLine(context: Context, request: LlmRequest, line: BudgetLine): void {
  request.contents = [...(request.contents ?? []), budgetLineContent(line.text)];
  rememberBudgetFigures(context, line.figures);
  recordBudgetLine(context.agentName, line.tokens);
}

/** A stored summary not applied is warned about; a new one is offered to the calls queued behind this one. */
function reportSummary(context: Context, key: string, result: GuardRequestResult, appliers: ResultAppliers): void {
  if (result.summaryDiscarded) {
    // Compacted afresh in this call, it costs a summary, no more (the forty-ninth outside trial read "Sending the full
    // history" seven times on an 8k agent whose every such call compacted again).
    const fresh = result.compaction !== undefined;
    appliers.logger[fresh ? 'info' : 'warn'](
      `${LOG_PREFIX} agent '${context.agentName}': stored summary not applied: ${result.summaryDiscarded}. ` +
        (fresh ? 'Compacting the history afresh in this call.' : 'Sending the full history.'),
    );
  }
  if (result.summaryHeld) {
    appliers.logger.info(
      `${LOG_PREFIX} agent '${context.agentName}': stored summary ${result.summaryHeld}: ADK sends a late function ` +
        `response with the history up to its call, then places it right after the call; the call, the response and ` +
        `what follows are sent whole until a compaction covers them.`,
    );
  }
  if (result.compactionDiscarded)
    appliers.logger.info(`${LOG_PREFIX} agent '${context.agentName}': ${result.compactionDiscarded}.`);
  // Read by calls queued behind this one; dropped when the queue empties.
  if (storedNew(result)) appliers.queue.share(key, result.newSummary);
}

/** Whether this call's new summary is written (not one made on ADK's view of a late answer, which writes none). */
/** `result` with a claimed preparation it settles without applying counted once, and said (pipeline/wasted-preparation.ts). */
function countedWaste(agentName: string, read: ReadRequest, result: GuardRequestResult, logger: GuardLogger) {
  const wasted = wastedPreparation({
    claimed: read.prepared.claim !== undefined,
    applied: result.compaction?.prepared === true,
    dropped: result.preparedDropped,
    stored: storedNew(result),
    preparing: result.preparation !== undefined,
  });
  if (wasted === undefined) return result;
  logger.info(`${LOG_PREFIX} agent '${agentName}': prepared summary dropped: ${wasted}.`);
  return withWastedPreparation(result);
}

const storedNew = (result: GuardRequestResult): result is GuardRequestResult & { newSummary: SummaryRecord } =>
  result.newSummary !== undefined && result.state.summary === result.newSummary;

/**
 * Interactions mode: without `previousInteractionId` ADK sends the whole request and the server
 * starts a new chain from it; the response's interaction id continues it on the next call.
 */
function startFreshChain(agentName: string, request: LlmRequest, calibrated: number, logger: GuardLogger): void {
  delete request.previousInteractionId;
  recordFreshChain(agentName);
  logger.info(
    `${LOG_PREFIX} agent '${agentName}': starting a fresh Interactions API chain of ~${calibrated} tokens (the server-held history is replaced).`,
  );
}

/** Parts other than the user's message cut to fit (fit-request.ts): a tool result, or a model's call's arguments. */
const SHRUNK_NOTE = (sent: number): string =>
  `the largest parts of the request (tool results, or the arguments of the model's own calls) were sent cut head ` +
  `and tail, with a marker where their middle was, to fit: ~${sent} tokens sent; the session keeps them whole`;

function reportMasking(agentName: string, masking: MaskingStep, logger: GuardLogger): void {
  recordMasking(agentName, masking.cause);
  logger.info(
    `${LOG_PREFIX} agent '${agentName}': masked old tool results before content ${masking.upTo}, ` +
      `~${masking.tokensBefore} -> ~${masking.tokensAfter} tokens, no model call` +
      (masking.cause === 'cost'
        ? ' (for cost: the window has room, but masking completed turns saves at least maskStaleOutputTokens and pays for the cached prefix it breaks).'
        : ' (for room: a compaction was due).'),
  );
}

async function applyCompaction(
  context: Context,
  request: LlmRequest,
  read: ReadRequest,
  outcome: NonNullable<GuardRequestResult['compaction']>,
  reporter: CompactionReporter,
  strategy: ResolvedPolicy['strategy'],
): Promise<void> {
  // A summary prepared in the background and applied alone: the figures are that call's, billed when it settled.
  const preparedAlone = billedWhenSettled(outcome.waitedMs, outcome.prepared);
  const seen = {
    outcome,
    contents: read.contents,
    fingerprints: read.input.fingerprints,
    startedAt: read.input.now,
    summarizerName: read.summarizerName,
    summarizerPricedAs: read.summarizerPricedAs,
    strategy,
    model: request.model,
    preparationId: preparedAlone ? read.prepared.id : undefined,
    aborted: context.invocationContext.abortSignal?.aborted === true,
  };
  const record = reporter.record(context, seen);
  writeLastCompaction(context.state, context.agentName, record);
  // The summarizer's call is billed once, apart from the agent's: in the usage record and in telemetry (a
  // background one's telemetry when it settled, by the process that made it: adk/runtime/replica-prepared.ts).
  const bill = recordedSummarizerBill(record);
  updateUsage(context.state, context.agentName, (usage) => billSummarizerUsage(usage, bill));
  if (bill && !preparedAlone) recordSummarizerTelemetry(context.agentName, read.summarizerName, bill);
  await reporter.report(record, seen);
}

/**
 * A summary made in this call and not kept (it would not make the request smaller) was billed by the provider: its
 * summarizer calls count in the usage record, the call's record and telemetry (the twenty-second outside trial:
 * `status()` left out 12% of a coding session's summarizer bill).
 */
function billDiscarded(
  context: Context,
  read: ReadRequest,
  figures: SummarizerReport,
  reporter: CompactionReporter,
): void {
  const bill = reporter.discarded(context, figures, read.summarizerPricedAs);
  updateUsage(context.state, context.agentName, (usage) => billSummarizerUsage(usage, bill));
  if (bill) recordSummarizerTelemetry(context.agentName, read.summarizerName, bill);
}

/**
 * A decision not applied (a retry's that would not have paid, adk/hooks/retry-rejected.ts): the summary it made was
 * billed by the provider all the same (review 18). A summary prepared in the background and taken was billed when
 * it settled. Returns `undefined`, the guard's answer for a decision not applied.
 */
export function billUnapplied(
  context: Context,
  read: ReadRequest,
  result: GuardRequestResult,
  reporter: CompactionReporter,
): undefined {
  const compaction = result.compaction;
  const made =
    compaction && !billedWhenSettled(compaction.waitedMs, compaction.prepared)
      ? compaction
      : result.discardedSummarizer;
  if (made) billDiscarded(context, read, made, reporter);
  return undefined;
}
