/**
 * The collaborators the plugin's hooks share, built once per guard from its options and logger:
 * the reader's and the applier's (tokenizer, measure caches, pins, windows, the per-session
 * queue, prepared summaries) and the compaction reporter.
 */
import type { ContextGuardOptions, GuardLogger } from '../../options.js';
import { priceLookup } from '../../cost/price-lookup.js';
import { priceFor } from '../../cost/price-table.js';
import { ContentMeasureCache } from '../../estimate/content-measure-cache.js';
import { TokenMemo } from '../../estimate/estimate-request.js';
import { FixedPartMemo } from '../../estimate/fixed-part-memo.js';
import { PlaceholderCache } from '../../masking/placeholder-cache.js';
import { recordPreparedSummary } from '../../telemetry/guard-metrics.js';
import type { ResultAppliers } from './apply-result.js';
import { CompactionReporter } from './compaction-reporter.js';
import { RecallToolDeclarer } from '../tools/declare-recall-tool.js';
import { ContextStatusDeclarer } from '../tools/context-status-tool.js';
import { budgetLineContent, longestBudgetLine } from '../../budget/budget-line.js';
import { estimateContentTokens } from '../../estimate/estimate-content.js';
import { GuardPins } from '../runtime/session-pins.js';
import { guardTokenizer } from '../runtime/tokenizer-in-use.js';
import { KeyedQueue } from './keyed-queue.js';
import { LeftRequests } from './left-requests.js';
import { ModelWindowResolver } from '../runtime/model-window-resolver.js';
import { PendingCalls } from './pending-calls.js';
import { CallUsage } from './call-usage.js';
import { CallReturns } from '../runtime/call-returns.js';
import { PreparedSummaries } from '../runtime/prepared-summaries.js';
import { ReplicaPrepared } from '../runtime/replica-prepared.js';
import type { RequestReaders } from './read-request.js';
import { WarnOnce } from '../runtime/warn-once.js';

export type GuardParts = RequestReaders &
  ResultAppliers & {
    readonly reporter: CompactionReporter;
    readonly recallTool: RecallToolDeclarer;
    /** The `context_status` tool, declared where `budgetLine` is on. */
    readonly statusTool: ContextStatusDeclarer;
    /** Heuristic tokens of the longest budget line: kept in the estimate's fixed part where the line is sent. */
    readonly budgetLineReserve: number;
    /** Each call's request as the guard left it, to measure what the agent's callbacks add. */
    readonly left: LeftRequests;
    /** The fixed part's estimates of each session and agent's earlier calls. */
    readonly fixedParts: FixedPartMemo;
    /** What each model call's responses have billed: a streamed call is billed once. */
    readonly usage: CallUsage;
    /** Warnings logged once per cause for the life of the process. */
    readonly warnings: WarnOnce;
  };

export function guardParts(options: ContextGuardOptions, logger: GuardLogger): GuardParts {
  const tokenizer = guardTokenizer(options.tokenizer, logger);
  const warnings = new WarnOnce(logger);
  const fixedMemo = new TokenMemo();
  return {
    tokenizer,
    logger,
    measures: new ContentMeasureCache({ tokens: options.measureCacheTokens }),
    fixedMemo,
    maskedMemo: new TokenMemo(20_000),
    placeholders: new PlaceholderCache(),
    windows: new ModelWindowResolver(options, logger),
    queue: new KeyedQueue(),
    prepared: new PreparedSummaries(logger, recordPreparedSummary),
    replicas: new ReplicaPrepared(logger, (model) => priceFor(model, options.prices)),
    reporter: new CompactionReporter(options, logger),
    calls: new PendingCalls(),
    returns: new CallReturns(),
    pins: new GuardPins(tokenizer, logger, warnings),
    recallTool: new RecallToolDeclarer(warnings, tokenizer, fixedMemo),
    statusTool: new ContextStatusDeclarer(),
    budgetLineReserve: estimateContentTokens(budgetLineContent(longestBudgetLine()), tokenizer),
    left: new LeftRequests(tokenizer, fixedMemo),
    fixedParts: new FixedPartMemo(),
    usage: new CallUsage(),
    warnings,
    priceOf: priceLookup(options.prices),
  };
}
