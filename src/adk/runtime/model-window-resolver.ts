/**
 * The windows in force: the request's (registry, options, or a maximum a provider stated), the
 * pin cap's and the summarizer's, each from one rule (see budget/summarizer-window.ts and
 * memory/pin-cap.ts). Holds the windows learned from rejections, shared by every session.
 */
import { isBaseLlm, isLlmAgent, type Context } from '@google/adk';
import { agentModelSummarizer, llmSummarizer } from './llm-summarizer.js';
import type { Summarizer } from '../../summary/summarizer.js';
import type { AgentRequestShape } from '../../summary/summary-from-request.js';
import { summarizerWindowFor } from '../../budget/summarizer-window.js';
import { pinCapIn } from '../../memory/pin-cap.js';
import {
  DEFAULT_CONTEXT_WINDOW,
  normalizeModelName,
  resolveContextWindow,
  type ResolvedWindow,
} from '../../estimate/model-registry.js';
import { decideWindow, windowFloor, type AcceptedSize, type WindowChoice } from '../../usage/learned-window.js';
import { decodeUsageRecord, type UsageRecord } from '../../usage/stored-usage.js';
import { stateKeysFor } from '../../state/keys.js';
import type { ContextGuardOptions, GuardLogger, ResolvedPolicy } from '../../options.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

/** The summarizer of a request and the window it is given. */
interface SummarizerChoice {
  readonly summarizer: Summarizer | undefined;
  readonly window: number;
  /** True when it is the agent's own model, asked as a continuation of the agent's request. */
  readonly readsRequest: boolean;
}

export class ModelWindowResolver {
  private readonly warnedModels = new Set<string>();
  /**
   * Windows providers stated in rejections, by normalised model name: every session this guard serves benefits.
   * Only earned statements reach it (usage/provider-feedback.ts), never a value read from a session's state.
   */
  private readonly learnedWindows = new Map<string, number>();
  /** The largest request each model accepted in this process (normalised name): no window below it is believed. */
  private readonly acceptedSizes = new Map<string, AcceptedSize>();
  /** Agent, model and value of a learned window in state that a request accepted in this process contradicts (warned once). */
  private readonly warnedContradicted = new Set<string>();
  /** Agent and model pairs whose larger `contextWindow` a stated maximum overrode (logged once). */
  private readonly warnedOverrides = new Set<string>();

  constructor(
    private readonly options: ContextGuardOptions,
    private readonly logger: GuardLogger,
  ) {}

  /** Remembers a maximum a provider stated for `model` (normalised name), unless `model` accepted a larger request here. */
  learn(model: string, window: number): void {
    if (window >= windowFloor([this.acceptedSizes.get(model)])) this.learnedWindows.set(model, window);
  }

  /** Remembers that `model` accepted a request of this size (either figure may be missing). */
  accept(model: string | undefined, size: AcceptedSize): void {
    const name = normalizeModelName(model ?? '');
    const before = this.acceptedSizes.get(name);
    this.acceptedSizes.set(name, {
      tokens: Math.max(before?.tokens ?? 0, size.tokens ?? 0) || undefined,
      estimate: Math.max(before?.estimate ?? 0, size.estimate ?? 0) || undefined,
    });
  }

  /** The largest request `model` accepted in this process. */
  acceptedBy(model: string | undefined): AcceptedSize | undefined {
    return this.acceptedSizes.get(normalizeModelName(model ?? ''));
  }

  /** The agent's window: the registry's or the options', unless a provider's rejection stated a maximum (see usage/learned-window.ts). */
  agentWindow(policy: ResolvedPolicy, model: string | undefined, usage: UsageRecord, agentName: string): WindowChoice {
    const name = normalizeModelName(model ?? '');
    const resolved = this.resolve(policy, model);
    // Only rejections seen by this process feed the per-model map; a session's state informs that session alone.
    const decision = decideWindow(usage, {
      model: name,
      resolved,
      processWindow: this.learnedWindows.get(name),
      processAccepted: this.acceptedSizes.get(name),
    });
    if (decision.contradicted) this.warnContradicted(usage, name, agentName);
    // Warn about an unknown model only while nothing better is known.
    if (!decision.learned) this.warnIfUnknown(resolved, model);
    const overrideKey = `${agentName}\u0000${resolved.model}`;
    if (decision.overriddenOption !== undefined && !this.warnedOverrides.has(overrideKey)) {
      this.warnedOverrides.add(overrideKey);
      this.logger.warn(
        `${LOG_PREFIX} agent '${agentName}': contextWindow ${decision.overriddenOption} for model '${resolved.model}' is larger than the maximum the provider ` +
          `stated (${decision.window}); using ${decision.window}.`,
      );
    }
    const { window, origin, overriddenOption } = decision;
    return { window, origin, overriddenOption };
  }

  /** `name`: the request's normalised model name (the one in state equals it), never a string read from state. */
  private warnContradicted(usage: UsageRecord, name: string, agentName: string): void {
    const key = `${agentName}\u0000${name}\u0000${usage.learnedWindow ?? 0}`;
    if (this.warnedContradicted.has(key)) return;
    if (this.warnedContradicted.size >= 10_000) this.warnedContradicted.clear();
    this.warnedContradicted.add(key);
    this.logger.warn(
      `${LOG_PREFIX} agent '${agentName}': ignoring the learned window ${usage.learnedWindow ?? 0} in state for model '${name}': ` +
        `the model accepted a larger request in this process.`,
    );
  }

  /**
   * The summarizer for a request whose window is `agentWindow`, which a `Summarizer` without its own window shares.
   * `agentRequest`: the agent's request as read, before the guard changed it (the agent's own model summarizes from it).
   */
  summarizerFor(
    policy: ResolvedPolicy,
    context: Context,
    agentWindow: number,
    agentRequest?: AgentRequestShape,
  ): SummarizerChoice {
    const declared = policy.summarizerContextWindow;
    const own = this.ownSummarizer(policy, context, agentRequest);
    // The summarizer model's window is resolved (and an unknown one warned about) only when none is declared.
    const ownWindow = declared === undefined && own ? own.window() : undefined;
    return {
      summarizer: own?.summarizer,
      window: summarizerWindowFor(declared, ownWindow, agentWindow),
      readsRequest: own?.readsRequest === true && agentRequest !== undefined,
    };
  }

  /** Token cap of an agent's pins under `window`, else under its window last seen, configured or assumed. */
  pinCap(policy: ResolvedPolicy, agentName: string, state: Readonly<Record<string, unknown>>, window?: number): number {
    const windows = {
      request: window,
      lastSeen: decodeUsageRecord(state[stateKeysFor(agentName).usage]).window,
      configured: policy.contextWindow ?? this.options.defaultContextWindow,
      fallback: DEFAULT_CONTEXT_WINDOW,
    };
    return pinCapIn(windows, policy.maxPinnedTokens);
  }

  private ownSummarizer(
    policy: ResolvedPolicy,
    context: Context,
    agentRequest: AgentRequestShape | undefined,
  ): { summarizer: Summarizer; window: () => number | undefined; readsRequest?: boolean } | undefined {
    const option = policy.summarizer;
    if (option && 'summarize' in option && typeof option.summarize === 'function')
      return { summarizer: option, window: () => option.contextWindow };
    if (option && isBaseLlm(option))
      return {
        summarizer: llmSummarizer(option),
        window: () => this.windowFor({ ...policy, contextWindow: undefined }, option.model),
      };
    const agent = context.invocationContext.agent;
    if (!isLlmAgent(agent)) return undefined;
    const model = agent.canonicalModel;
    // The agent's own model reads its own request: the provider's cache holds that prefix.
    return {
      summarizer: agentModelSummarizer(model, agentRequest),
      window: () => this.windowFor(policy, model.model),
      readsRequest: true,
    };
  }

  /** A summarizer model's window: a maximum it stated in a rejection of a summary request wins when smaller. */
  private windowFor(policy: ResolvedPolicy, model: string | undefined): number {
    const resolved = this.resolve(policy, model);
    const learned = this.learnedWindows.get(normalizeModelName(model ?? ''));
    if (learned === undefined) this.warnIfUnknown(resolved, model);
    return Math.min(resolved.window, learned ?? resolved.window);
  }

  private resolve(policy: ResolvedPolicy, model: string | undefined): ResolvedWindow {
    return resolveContextWindow(model, {
      override: policy.contextWindow,
      table: this.options.modelWindows,
      defaultWindow: this.options.defaultContextWindow,
    });
  }

  private warnIfUnknown(resolved: ResolvedWindow, model: string | undefined): void {
    if (resolved.source === 'default' && !this.warnedModels.has(resolved.model)) {
      this.warnedModels.add(resolved.model);
      this.logger.warn(
        `${LOG_PREFIX} unknown model '${model ?? ''}': assuming a ${resolved.window}-token window until the provider states its maximum ` +
          `(the first request over the real window is rejected once; the maximum its error states becomes the window). ` +
          `Set contextWindow (per agent) or modelWindows: { '${resolved.model}': <tokens> } to use the real window from the first call.`,
      );
    }
  }
}
