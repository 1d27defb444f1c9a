/**
 * The collaborators the plugin's hooks share, built once per guard from its options and logger:
 * the reader's and the applier's (tokenizer, measure caches, pins, windows, the per-session
 * queue, prepared summaries) and the compaction reporter.
 */
import type { ContextGuardOptions, GuardLogger } from '../options.js';
import { ContentMeasureCache } from '../estimate/content-measure-cache.js';
import { TokenMemo } from '../estimate/estimate-request.js';
import { recordPreparedSummary } from '../telemetry/guard-telemetry.js';
import type { ResultAppliers } from './apply-result.js';
import { CompactionReporter } from './compaction-reporter.js';
import { GuardPins } from './guard-pins.js';
import { guardTokenizer } from './guard-tokenizer.js';
import { KeyedQueue } from './keyed-queue.js';
import { ModelWindowResolver } from './model-window-resolver.js';
import { PreparedSummaries } from './prepared-summaries.js';
import type { RequestReaders } from './read-request.js';
import { WarnOnce } from './warn-once.js';

export type GuardParts = RequestReaders & ResultAppliers & { readonly reporter: CompactionReporter };

export function guardParts(options: ContextGuardOptions, logger: GuardLogger): GuardParts {
  const tokenizer = guardTokenizer(options.tokenizer, logger);
  return {
    tokenizer,
    logger,
    measures: new ContentMeasureCache(),
    fixedMemo: new TokenMemo(),
    maskedMemo: new TokenMemo(20_000),
    windows: new ModelWindowResolver(options, logger),
    queue: new KeyedQueue(),
    prepared: new PreparedSummaries(logger, recordPreparedSummary),
    reporter: new CompactionReporter(options, logger),
    pins: new GuardPins(tokenizer, logger, new WarnOnce(logger)),
    prices: options.prices,
  };
}
