/**
 * The shell's first half: turns ADK's `Context` and `LlmRequest` into the plain input of the
 * core (pipeline/guard-request.ts). State is written here only where the reading itself decides
 * it: an unreadable summary is cleared, a first request may be pinned.
 */
import { ownRequestIn } from '../runtime/own-request.js';
import { applicationAnswers } from '../runtime/application-answers.js';
import { unansweredCalls } from '../runtime/unanswered-calls.js';
import { priceRatiosOf } from '../../cost/cache-terms.js';
import type { ModelPrice } from '../../cost/price-table.js';
import { agentModelPrice, summarizerNames } from '../runtime/listed-routed-name.js';
import { summaryInput } from './summary-input.js';
import type { Context, LlmRequest } from '@google/adk';
import { budgetLineFor } from './budget-line-input.js';
import type { Content } from '@google/genai';
import type { GuardRequestInput } from '../../pipeline/guard-request.js';
import type { PreparedHandle } from '../../preparation/prepared-summary.js';
import type { WindowChoice } from '../../usage/learned-window.js';
import type { ContentMeasureCache } from '../../estimate/content-measure-cache.js';
import { measureContents } from './measure-contents.js';
import type { TokenMemo } from '../../estimate/estimate-request.js';
import { liveFingerprints } from '../../estimate/live-fingerprints.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import { pinnedContent } from '../../memory/pins.js';
import { encodeRecord } from '../../state/codec.js';
import { readSummaryRecord, type SummaryRecord } from '../../summary/stored-summary.js';
import { readUsageRecord, type UsageRecord } from '../../usage/stored-usage.js';
import { readMaskRecord, type MaskRecord } from '../../masking/mask-record.js';
import type { PlaceholderCache } from '../../masking/placeholder-cache.js';
import { stateKeysFor } from '../../state/keys.js';
import type { GuardLogger, ResolvedPolicy } from '../../options.js';
import type { CompactionHooks } from './compaction-hooks.js';
import type { GuardPins } from '../runtime/session-pins.js';
import type { KeyedQueue } from './keyed-queue.js';
import type { PreparedSummaries } from '../runtime/prepared-summaries.js';
import type { PreparedLookup, ReplicaPrepared } from '../runtime/replica-prepared.js';
import type { ModelWindowResolver } from '../runtime/model-window-resolver.js';
import { isContextRecallTool } from '../tools/recall-tool.js';
import { interactionsCall } from '../../interactions/interactions-mode.js';
import { interactionsModelOf } from '../runtime/interactions-model.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { pendingCompactionRequest } from '../../trigger/compaction-request.js';
import type { SummaryRejection } from './summary-rejection.js';
import { summarizeForCall, summarizeInBackground } from './call-summarizer.js';
import type { CallFixedPart } from './call-fixed-part.js';

/** The label ADK 2.0.0 sets on every agent request (`LlmAgent.callLlmAsync`), after the plugins' callbacks. */
const AGENT_NAME_LABEL = 'adk_agent_name';

/** The session state flag ADK 2.0.0's `ConsolidateContextTool` sets (a `temp:` key: this invocation only). */
export const CONSOLIDATE_CONTEXT_FLAG = 'temp:consolidate_context';

/** What the reader uses, built once per guard. */
export interface RequestReaders {
  readonly tokenizer: Tokenizer;
  readonly logger: GuardLogger;
  readonly measures: ContentMeasureCache;
  readonly fixedMemo: TokenMemo;
  /** Tokens of masked tool results by fingerprint: content-independent figures, shared by every session. */
  readonly maskedMemo: TokenMemo;
  /** Placeholders built on earlier calls, per session and agent. */
  readonly placeholders: PlaceholderCache;
  readonly windows: ModelWindowResolver;
  readonly pins: GuardPins;
  readonly queue: KeyedQueue;
  readonly prepared: PreparedSummaries;
  /** Prepared summaries in session state, from whichever replica made them. */
  readonly replicas: ReplicaPrepared;
  /** A model's price by name (prices option, then the built-in table): masking for cost weighs its ratios. */
  readonly priceOf: (model: string | undefined) => ModelPrice | undefined;
  /** Heuristic tokens of the longest budget line (`budgetLine`), reserved in the fixed part where it is sent. */
  readonly budgetLineReserve: number;
}

/** The agent's guard state as stored, read before the compaction hooks exist. */
/** The recall tool the guard may still add on this call, if it masks or summarizes (adk/hooks/before-model-guard.ts). */
export interface RecallPending {
  readonly name: string;
  /** Heuristic tokens of its declaration. */
  readonly tokens: number;
}

interface StoredGuardState {
  readonly summary: SummaryRecord | undefined;
  /** The mask record, decoded once a call. */
  readonly mask: MaskRecord | undefined;
  readonly usage: UsageRecord;
  /** A compaction asked for with `requestCompaction`, or with ADK's `consolidate_context` tool. */
  readonly requested: boolean;
  /** The request came from ADK's `consolidate_context` tool: its flag is cleared once served. */
  readonly consolidate: boolean;
  /** The id of the pending `requestCompaction` read; recorded as handled once served. */
  readonly requestId: string | undefined;
}

/** The core's input and what applying its result needs from the reading. */
export interface ReadRequest {
  readonly input: GuardRequestInput;
  readonly contents: readonly Content[];
  /** The id of the pending `requestCompaction` this call read, if any. */
  readonly requestId: string | undefined;
  readonly summarizerName: string | undefined;
  /** The name the summarizer's calls are priced by: its own, else (a renamed `RoutedLlm`) ADK's listing of its models. */
  readonly summarizerPricedAs: string | undefined;
  /** The prepared summary of this session and agent, from where it is (the input's is wrapped to fire the hooks). */
  readonly prepared: PreparedLookup;
  /** The summarizer for a background preparation: no compaction hooks, not tied to this turn's abort signal. */
  readonly backgroundSummarize: GuardRequestInput['summarize'];
}

export function readStoredState(context: Context, logger: GuardLogger): StoredGuardState {
  const keys = stateKeysFor(context.agentName);
  const stored = context.state.get<unknown>(keys.summary);
  const { summary, dropped: summaryDropped } = readSummaryRecord(stored);
  if (stored !== undefined && stored !== null && !summary) {
    // Warn once: clearing it keeps every later call from tripping over the same garbage.
    logger.warn(
      `${LOG_PREFIX} agent '${context.agentName}': ignoring an unreadable summary record in state; it is cleared.`,
    );
    context.state.set(keys.summary, null);
  }
  // Rewritten without them, so the warning is not repeated.
  if (summary && summaryDropped.length > 0) context.state.set(keys.summary, encodeRecord(summary));
  const read = readUsageRecord(context.state.get<unknown>(keys.usage));
  const masked = readStoredMask(context, keys.mask);
  // The usage record is rewritten on this call (adk/hooks/apply-result.ts), so what was dropped is warned about once.
  const dropped = [
    ...(read.unreadable ? ['usage (unreadable)'] : read.dropped.map((field) => `usage.${field}`)),
    ...summaryDropped.map((field) => `summary.${field}`),
    ...masked.dropped,
  ];
  if (dropped.length > 0)
    logger.warn(
      `${LOG_PREFIX} agent '${context.agentName}': ignoring out-of-range values in state (${dropped.join(', ')}); ` +
        `they are dropped and rewritten.`,
    );
  // ADK's `consolidate_context` tool (ConsolidateContextTool) asks for a compaction through this flag; with no
  // AgentControlledContextCompactor on the agent to serve (and clear) it first, the guard serves it as its own request.
  const consolidate = context.state.get<unknown>(CONSOLIDATE_CONTEXT_FLAG) === true;
  // `requestCompaction`'s mark alone forces the compaction: a flag it set in the usage record was lost
  // whenever a call in flight wrote the record after it (the mark was then cleared with nothing compacted).
  // Pending while its id is not the one handled: a request made after this read keeps its own id.
  const requestId = pendingCompactionRequest(
    context.state.get<unknown>(keys.compactionRequest),
    context.state.get<unknown>(keys.compactionRequestHandled),
  );
  const requested = consolidate || requestId !== undefined;
  const usage = requested ? { ...read.usage, forceCompaction: true } : read.usage;
  return { summary, mask: masked.mask, usage, requested, consolidate, requestId };
}

/**
 * The stored mask record, and its unreadable or out-of-range values, cleared or rewritten without them (the
 * rewritten record reads back as `mask`: nothing else writes it before the request is read).
 */
function readStoredMask(context: Context, key: string): { mask: MaskRecord | undefined; dropped: string[] } {
  const { mask, unreadable, dropped } = readMaskRecord(context.state.get<unknown>(key));
  if (unreadable) context.state.set(key, null);
  else if (mask && dropped.length > 0) context.state.set(key, encodeRecord(mask));
  return { mask, dropped: unreadable ? ['mask (unreadable)'] : dropped.map((field) => `mask.${field}`) };
}

/**
 * The summarizer of this call, given the config as the agent's call sends it (ADK adds the agent's
 * label after the plugins' callbacks): the summary is asked with the same prefix, and billed to the same agent.
 */
function summarizerForCall(
  windows: RequestReaders['windows'],
  policy: ResolvedPolicy,
  context: Context,
  request: LlmRequest,
  agent: { readonly window: number; readonly usage: UsageRecord },
): ReturnType<RequestReaders['windows']['summarizerFor']> {
  const labels = { [AGENT_NAME_LABEL]: context.agentName, ...request.config?.labels };
  return windows.summarizerFor(policy, context, agent, { config: { ...request.config, labels } });
}

/** The stored state with what the call decided before reading the request. */
type ReadState = StoredGuardState & {
  readonly windowChoice: WindowChoice;
  readonly recallPending?: RecallPending | undefined;
  /** Where the summarizer's "too long" rejection is noted, for the caller to learn from (adk/hooks/summary-rejection.ts). */
  readonly summaryRejection?: SummaryRejection | undefined;
  /** This call's fixed part, as the recall check estimated it (estimated again only if it changed since). */
  readonly fixedPart: CallFixedPart;
  /** What nothing editing the request after the guard allows (adk/hooks/before-model-guard.ts). */
  readonly afterGuard?: Pick<GuardRequestInput, 'firstMessageOnEstimate' | 'rejectionRetried'> | undefined;
};

/**
 * `key`: the session and agent's queue key; `exact`: every content is compared with its measured copy (else only
 * while the session's events the cache measured on still lead the session's, in order).
 */
export function readRequest(
  context: Context,
  request: LlmRequest,
  key: string,
  policy: ResolvedPolicy,
  stored: ReadState,
  hooks: CompactionHooks,
  readers: RequestReaders,
  exact = true,
): ReadRequest {
  const { tokenizer, windows } = readers;
  const contents = request.contents ?? [];
  const measures = measureContents(context, key, contents, readers.measures, readers.tokenizer, exact);
  const fingerprintAt = liveFingerprints(contents, measures);
  const prepared = readers.replicas.lookup(context, policy, readers.prepared.get(key));
  const fixed = stored.fixedPart.now();
  const interactions = interactionsCall(request, interactionsModelOf(context.invocationContext.agent));
  const budgetLine = budgetLineFor(context, policy, interactions !== undefined, request);
  const { windowChoice, summaryRejection } = stored;
  const window = windowChoice.window;
  const summarizer = summarizerForCall(windows, policy, context, request, { window, usage: stored.usage });
  const cap = windows.pinCap(policy, context.agentName, (key) => context.state.get<unknown>(key), window);
  const pinned = readers.pins.forRequest(context, policy, contents, stored.usage, cap);
  const recallTool = Object.values(request.toolsDict ?? {}).find((tool) => isContextRecallTool(tool));
  const input: GuardRequestInput = {
    pinned: pinnedContent(pinned.pins),
    recallToolName: recallTool?.name ?? stored.recallPending?.name,
    recallDeclarationTokens: recallTool ? undefined : stored.recallPending?.tokens,
    contents,
    fingerprints: measures.fingerprints,
    framing: measures.framing,
    fingerprintAt,
    tokens: measures.tokens,
    fixedTokens: fixed.systemTokens + fixed.toolTokens + (budgetLine ? readers.budgetLineReserve : 0),
    budgetLine,
    fixedFramingTokens: fixed.framingTokens,
    ...summaryInput(context, stored.summary, readers.queue.sharedSummary(key), fingerprintAt, contents.length),
    ...sessionTurns(contents, context, key),
    mask: stored.mask,
    manual: stored.requested,
    maskedTokenMemo: readers.maskedMemo,
    placeholders: readers.placeholders.for(key, measures),
    usage: pinned.usage,
    policy,
    window,
    windowOrigin: windowChoice.origin,
    invocationId: context.invocationId,
    maxOutputTokens: request.config?.maxOutputTokens,
    summarizerWindow: summarizer.window,
    summarizerReadsRequest: summarizer.readsRequest,
    tokenizer,
    summarize: summarizeForCall(summarizer.summarizer, summaryRejection, { policy, context, hooks, fixed, tokenizer }),
    now: Date.now(),
    ...priceRatiosOf(agentModelPrice(context.invocationContext.agent, readers.priceOf)(request.model), request.model),
    prepared: preparedForInput(prepared.handle, hooks),
    interactions,
    ...stored.afterGuard,
  };
  return {
    input,
    contents,
    requestId: stored.requestId,
    ...summarizerNames(summarizer.summarizer?.name, summarizer.routedName, readers.priceOf),
    prepared,
    backgroundSummarize: summarizeInBackground(summarizer.summarizer, policy, fixed, tokenizer, context),
  };
}

/** What the session's other turns and the application's answers mean for this request (own-request.ts, application-answers.ts, unanswered-calls.ts). */
function sessionTurns(
  contents: readonly Content[],
  context: Context,
  key: string,
): Pick<GuardRequestInput, 'ownRequestAt' | 'applicationAnswers' | 'pendingCalls'> {
  const invocation = context.invocationContext;
  return {
    ownRequestAt: ownRequestIn(contents, invocation),
    applicationAnswers: applicationAnswers(invocation.session.events, key),
    pendingCalls: unansweredCalls(invocation.session.events, key, context.agentName),
  };
}

/** Taking a prepared summary starts this call's compaction: other plugins' `before` hook fires then. */
function preparedForInput(handle: PreparedHandle | undefined, hooks: CompactionHooks): PreparedHandle | undefined {
  if (!handle) return undefined;
  // `answers` kept: without them every answer of the application's inside it reads as unread, and it is dropped.
  const { previous, watermark, answers } = handle;
  return { previous, watermark, answers, take: hooks.wrap(() => handle.take()) };
}
