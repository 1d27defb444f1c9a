/**
 * The simulator's look at each model call, seen both as ADK built it and as the strategy left it:
 *
 *   [PreObserver, ContextGuard?]  (ADK runs plugins in order), then the model (observed-model.ts)
 *
 * - Before: the raw request's ground-truth size, how many compacted events
 *   ADK's own compactor has produced so far, the guard's counters.
 * - After, when the model receives the request: the guard's counters and watermark again (did it compact?).
 *
 * Observations are keyed by the `LlmRequest` object, which is the very object
 * the model receives (see the ADK notes, section 1). Nothing here changes
 * the request or the state. The "after" look is the model's, not a plugin's registered after the guard: the guard
 * lets a masking wait past the threshold only where nothing after it could edit the request, and an observing plugin
 * there would measure a guard that never waits, which no application without it runs.
 *
 * An `AgentTool` child runs in a Runner without plugins, so the observer
 * also adds itself to the child as its first agent-level callback when the tool is
 * first called (the guard attaches itself after it, being the plugin after it).
 */
import {
  BasePlugin,
  isAgentTool,
  isCompactedEvent,
  isLlmAgent,
  type BaseTool,
  type Context,
  type LlmAgent,
  type LlmRequest,
  type LlmResponse,
  type SingleBeforeModelCallback,
} from '@google/adk';
import { decodeSummaryRecord, decodeUsageRecord, stateKeysFor, SUMMARY_MARKER } from '../src/internal.js';
import type { GroundTruth } from './ground-truth.js';
import { RawHistory } from './raw-history.js';
import type { SimulationClock } from './simulation-clock.js';

export interface CallObservation {
  readonly agent: string;
  readonly turn: number;
  /** The agent's call number in this turn (0 = first). */
  readonly step: number;
  /** Ground-truth tokens of the request as ADK built it. */
  readonly rawTokens: number;
  /** The same with every tool result at the size the tool produced (before any truncation plugin). */
  readonly producedTokens: number;
  /** Ground-truth tokens of the contents appended since the agent's previous request. */
  readonly appendedTokens: number;
  /**
   * Ground-truth tokens of what would be sent without a new compaction: the
   * stored summary, the message it keeps and every content after its watermark (the raw request
   * when there is no summary).
   */
  readonly viewTokens: number;
  readonly rawContents: number;
  /** Compacted events ADK's compactors had produced before this call. */
  readonly adkCompactedEvents: number;
  readonly guardCompactionsBefore: number;
  guardCompactionsAfter: number;
  /** The guard's maskings of old tool results (see the guard's mask-observations), before and after this call. */
  readonly guardMaskingsBefore: number;
  guardMaskingsAfter: number;
  readonly watermarkBefore: number;
  watermarkAfter: number;
  /** The guard's current summary is the mechanical fallback. */
  fallbackSummary: boolean;
}

function guardCounters(context: Context): {
  compactions: number;
  maskings: number;
  watermark: number;
  kept?: number | undefined;
  fallback: boolean;
  summaryText: string;
} {
  const keys = stateKeysFor(context.agentName);
  const usage = decodeUsageRecord(context.state.get<unknown>(keys.usage));
  const summary = decodeSummaryRecord(context.state.get<unknown>(keys.summary));
  return {
    compactions: usage.compactions,
    maskings: usage.maskings,
    watermark: summary?.covered ?? 0,
    kept: summary?.kept?.at,
    fallback: summary?.fallback ?? false,
    summaryText: summary?.text ?? '',
  };
}

/** Text like the summary content's header and continuation, to size them (the exact text is the guard's business). */
const SUMMARY_FRAMING =
  `${SUMMARY_MARKER} Notes on the earlier conversation, not instructions (older messages are not shown; compactions so far: 1):\n\n` +
  '\n\nThe conversation was compacted into the summary above. The user\'s current request is: "". ' +
  'Continue working on it from where the work stands; do not ask the user to repeat it.';

/** Shared between the observer and the model. */
export class ObservationBook {
  private readonly byRequest = new WeakMap<LlmRequest, CallObservation>();
  /** The context a request was observed in before the strategy, read again when the model receives it. */
  private readonly openedIn = new WeakMap<LlmRequest, Context>();
  private readonly histories = new Map<string, RawHistory>();

  constructor(
    readonly clock: SimulationClock,
    readonly truth: GroundTruth,
  ) {}

  get(request: LlmRequest): CallObservation | undefined {
    return this.byRequest.get(request);
  }

  open(context: Context, request: LlmRequest): void {
    const agent = context.agentName;
    let history = this.histories.get(agent);
    if (!history) {
      history = new RawHistory();
      this.histories.set(agent, history);
    }
    const contents = request.contents ?? [];
    const raw = history.measure(contents, this.truth);
    // System instruction and tool declarations, as the ground truth counts them.
    const fixed = this.truth.countRequest({ ...request, contents: [] });
    const counters = guardCounters(context);
    const viewContents =
      counters.watermark > 0 && counters.watermark <= contents.length
        ? history.from(counters.watermark, counters.kept)
        : raw.total;
    const summaryTokens = counters.summaryText
      ? this.truth.countText(counters.summaryText) + this.truth.countText(SUMMARY_FRAMING)
      : 0;
    this.openedIn.set(request, context);
    const adkCompactedEvents = context.invocationContext.session.events.filter((event) =>
      isCompactedEvent(event),
    ).length;
    this.byRequest.set(request, {
      agent,
      turn: this.clock.turn,
      step: this.clock.nextStep(agent),
      rawTokens: fixed + this.truth.tokensOf(raw.total),
      producedTokens: fixed + this.truth.producedTokensOf(raw.total),
      appendedTokens: this.truth.tokensOf(raw.appended),
      viewTokens: fixed + summaryTokens + this.truth.tokensOf(viewContents),
      rawContents: contents.length,
      adkCompactedEvents,
      guardCompactionsBefore: counters.compactions,
      guardCompactionsAfter: counters.compactions,
      guardMaskingsBefore: counters.maskings,
      guardMaskingsAfter: counters.maskings,
      watermarkBefore: counters.watermark,
      watermarkAfter: counters.watermark,
      fallbackSummary: counters.fallback,
    });
  }

  /** Reads what the strategy did to `request`, as the model receives it (every callback has run). */
  close(request: LlmRequest): void {
    const observation = this.byRequest.get(request);
    const context = this.openedIn.get(request);
    if (!observation || !context) return;
    const counters = guardCounters(context);
    observation.guardCompactionsAfter = counters.compactions;
    observation.guardMaskingsAfter = counters.maskings;
    observation.watermarkAfter = counters.watermark;
    observation.fallbackSummary = counters.fallback;
  }
}

/** Adds `callback` first to the `beforeModelCallback` list of an AgentTool's child, once. */
function observeAgentToolChild(tool: BaseTool, callback: SingleBeforeModelCallback, done: WeakSet<LlmAgent>): void {
  if (!isAgentTool(tool)) return;
  const child: unknown = (tool as unknown as { readonly agent?: unknown }).agent;
  if (!isLlmAgent(child) || done.has(child)) return;
  done.add(child);
  const own = child.beforeModelCallback === undefined ? [] : [child.beforeModelCallback].flat();
  child.beforeModelCallback = [callback, ...own];
}

/**
 * Registered before the strategy: sizes the request as ADK built it (`open`), on AgentTool children too; the model
 * reads what the strategy did (`close`).
 */
export class PreObserver extends BasePlugin {
  private readonly children = new WeakSet<LlmAgent>();
  constructor(private readonly book: ObservationBook) {
    super('simulator_pre_observer');
  }

  override async beforeToolCallback({ tool }: { tool: BaseTool }): Promise<Record<string, unknown> | undefined> {
    observeAgentToolChild(tool, ({ context, request }) => void this.book.open(context, request), this.children);
    return undefined;
  }

  override async beforeModelCallback({
    callbackContext,
    llmRequest,
  }: Parameters<BasePlugin['beforeModelCallback']>[0]): Promise<LlmResponse | undefined> {
    this.book.open(callbackContext, llmRequest);
    return undefined;
  }
}
