/**
 * The windows in force: the request's (registry, options, or a maximum a provider stated), the
 * pin cap's and the summarizer's, each from one rule (see budget/summarizer-window.ts and
 * memory/pin-cap.ts). Holds the windows learned from rejections: a user's statements, for that
 * user's sessions, and the confirmed ones, for every session (usage/window-statements.ts).
 */
import { isBaseLlm, isLlmAgent, type Context } from '@google/adk';
import { agentModelSummarizer, optionModelSummarizer } from './llm-summarizer.js';
import type { Summarizer } from '../../summary/summarizer.js';
import type { AgentRequestShape } from '../../summary/summary-from-request.js';
import { summarizerWindowFor } from '../../budget/summarizer-window.js';
import { pinCapIn } from '../../memory/pin-cap.js';
import {
  DEFAULT_CONTEXT_WINDOW,
  isMemberWindow,
  modelKey,
  resolveContextWindow,
  type ResolvedWindow,
} from '../../estimate/model-registry.js';
import { decideWindow, windowFloor, type AcceptedSize, type WindowChoice } from '../../usage/learned-window.js';
import { windowEvidence } from '../../usage/window-evidence.js';
import { decodeUsageRecord, type UsageRecord } from '../../usage/stored-usage.js';
import { stateKeysFor } from '../../state/keys.js';
import {
  appOfUser,
  confirmedBy,
  MAX_STATED_MODELS,
  withStatement,
  type ModelStatements,
} from '../../usage/window-statements.js';
import { BoundedMap } from '../../collections/bounded-map.js';
import { userOfContext } from './session-scope.js';
import type { ContextGuardOptions, GuardLogger, ResolvedPolicy } from '../../options.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { BudgetWarnings } from './budget-warnings.js';
import { AcceptedSizes } from './accepted-sizes.js';
import { listedNameOf, listedRoutedName } from './listed-routed-name.js';

/** The summarizer of a request and the window it is given. */
interface SummarizerChoice {
  readonly summarizer: Summarizer | undefined;
  readonly window: number;
  /** True when it is the agent's own model, asked as a continuation of the agent's request. */
  readonly readsRequest: boolean;
  /** ADK's listing name of its model when that is a renamed `RoutedLlm` (priced by its models when its name is not). */
  readonly routedName?: string | undefined;
}

/** A summarizer's model by name: ADK's listing when it is a renamed `RoutedLlm`, a window learned in the session. */
interface SummarizerModel {
  readonly model: string | undefined;
  readonly routedName?: string | undefined;
  readonly inSession?: number | undefined;
}

/** A model key within one app: confirmed windows hold per app. */
const appModelKey = (model: string, user: string): string => `${model}\u0000${appOfUser(user)}`;

export class ModelWindowResolver {
  private readonly warnedModels = new Set<string>();
  /**
   * Windows providers stated in rejections of two users' sessions of one app, by model key (`modelKey`) and app
   * (usage/window-statements.ts `appOfUser`): every session of that app benefits. Only earned statements reach it
   * (usage/provider-feedback.ts), never a value read from a session's state.
   */
  private readonly learnedWindows = new BoundedMap<string, number>(MAX_STATED_MODELS);
  /** Earned statements by model key and app, then user (app + user): each user's sessions use their own. */
  private readonly statements = new BoundedMap<string, ModelStatements>(MAX_STATED_MODELS);
  /** The largest request each model accepted in this process, by user (adk/runtime/accepted-sizes.ts). */
  private readonly accepted = new AcceptedSizes();
  /** Agent, model and value of a learned window in state that a request accepted in this process contradicts (warned once). */
  private readonly warnedContradicted = new Set<string>();
  /** Agent and model pairs whose larger `contextWindow` a stated maximum overrode (logged once). */
  private readonly warnedOverrides = new Set<string>();
  private readonly budgetWarnings: BudgetWarnings;

  constructor(
    private readonly options: ContextGuardOptions,
    private readonly logger: GuardLogger,
  ) {
    this.budgetWarnings = new BudgetWarnings(logger);
  }

  /**
   * Remembers a maximum a provider stated for `model` (its key) in a session of `user`, unless `model`
   * accepted a larger request here: for that user's sessions, and for every session of its app once another user
   * of that app stated the same maximum. Returns where it now holds.
   */
  learn(model: string, window: number, user: string): 'user' | 'process' | undefined {
    if (window < windowFloor([this.accepted.forUser(model, user)])) return undefined;
    const key = appModelKey(model, user);
    const before = this.statements.get(key);
    const confirmed = confirmedBy(before, user, window);
    this.statements.set(key, withStatement(before, user, window));
    if (!confirmed || window < windowFloor([this.accepted.forAppOf(model, user)])) return 'user';
    this.learnedWindows.set(appModelKey(model, user), window);
    return 'process';
  }

  /** The maximum learned for `model` (its key) that applies to `user`'s sessions: its own, or a confirmed one. */
  private learnedFor(model: string, user: string): number | undefined {
    const process = this.learnedWindows.get(appModelKey(model, user));
    const own = this.statements.get(appModelKey(model, user))?.get(user);
    if (own === undefined || process === undefined) return own ?? process;
    return Math.min(own, process);
  }

  /** Remembers that `model` accepted a request of this size for `user` (either figure may be missing). */
  accept(model: string | undefined, size: AcceptedSize, user: string): void {
    this.accepted.accept(modelKey(model ?? ''), size, user);
  }

  /** The largest request `model` accepted for `user` in this process. */
  acceptedBy(model: string | undefined, user: string): AcceptedSize | undefined {
    return this.accepted.forUser(modelKey(model ?? ''), user);
  }

  /** The agent's window: the registry's or the options', unless a provider's rejection stated a maximum (see usage/learned-window.ts). */
  agentWindow(
    policy: ResolvedPolicy,
    model: string | undefined,
    usage: UsageRecord,
    agent: { readonly name: string; readonly user: string; readonly routedName?: string | undefined },
  ): WindowChoice {
    const agentName = agent.name;
    const name = modelKey(model ?? '');
    const resolved = this.resolveNamed(policy, model, agent.routedName);
    // Only rejections seen by this process feed the per-model maps; a session's state informs that session alone.
    const decision = decideWindow(usage, {
      model: name,
      resolved,
      processWindow: this.learnedFor(name, agent.user),
      processAccepted: this.accepted.forUser(name, agent.user),
      renamedRouter: agent.routedName !== undefined,
    });
    if (decision.contradicted) this.warnContradicted(usage, name, agentName);
    // Warn about an unknown model only while nothing better is known.
    if (!decision.learned) this.warnIfUnknown(resolved, model);
    const overrideKey = `${agentName}\u0000${resolved.model}`;
    if (decision.overriddenOption !== undefined && !this.warnedOverrides.has(overrideKey)) {
      this.warnedOverrides.add(overrideKey);
      this.logger.warn(
        `${LOG_PREFIX} agent '${agentName}': contextWindow ${decision.overriddenOption} for model '${resolved.model}' is larger than ${windowEvidence(decision)}; using ${decision.window}.`,
      );
    }
    const { window, origin, overriddenOption } = decision;
    this.budgetWarnings.check(policy, agentName, resolved.model, window, origin);
    return { window, origin, overriddenOption };
  }

  /** `name`: the request's model key (the one in state equals it), never a string read from state. */
  private warnContradicted(usage: UsageRecord, name: string, agentName: string): void {
    const key = `${agentName}\u0000${name}\u0000${usage.learnedWindow ?? 0}`;
    if (this.warnedContradicted.has(key)) return;
    if (this.warnedContradicted.size >= 10_000) this.warnedContradicted.clear();
    this.warnedContradicted.add(key);
    this.logger.warn(
      `${LOG_PREFIX} agent '${agentName}': ignoring the learned window ${usage.learnedWindow ?? 0} in state for model '${name}': ` +
        `the model accepted a larger request for this user in this process.`,
    );
  }

  /**
   * The summarizer for a request whose window is `agentWindow`, which a `Summarizer` without its own window shares.
   * `usage`: the agent's usage record as this call read it (a window a separate summarizer model stated in this
   * session is kept there). `agentRequest`: the agent's request as read, before the guard changed it (the agent's
   * own model summarizes from it).
   */
  summarizerFor(
    policy: ResolvedPolicy,
    context: Context,
    agent: { readonly window: number; readonly usage: UsageRecord },
    agentRequest?: AgentRequestShape,
  ): SummarizerChoice {
    const declared = policy.summarizerContextWindow;
    const own = this.ownSummarizer(policy, context, agent.usage, agentRequest);
    // The summarizer model's window is resolved (and an unknown one warned about) only when none is declared.
    const ownWindow = declared === undefined && own ? own.window() : undefined;
    return {
      summarizer: own?.summarizer,
      window: summarizerWindowFor(declared, ownWindow, agent.window),
      readsRequest: own?.readsRequest === true && agentRequest !== undefined,
      routedName: own?.routedName,
    };
  }

  /**
   * Token cap of an agent's pins under `window`, else under its window last seen, configured or assumed. `read`: one
   * key of session state; the usage record is read only without a `window` (no copy of the whole state per call).
   */
  pinCap(policy: ResolvedPolicy, agentName: string, read: (key: string) => unknown, window?: number): number {
    const windows = {
      request: window,
      lastSeen: window === undefined ? decodeUsageRecord(read(stateKeysFor(agentName).usage)).window : undefined,
      configured: policy.contextWindow ?? this.options.defaultContextWindow,
      fallback: DEFAULT_CONTEXT_WINDOW,
    };
    return pinCapIn(windows, policy.maxPinnedTokens);
  }

  private ownSummarizer(
    policy: ResolvedPolicy,
    context: Context,
    usage: UsageRecord,
    agentRequest: AgentRequestShape | undefined,
  ):
    | (Omit<SummarizerChoice, 'window' | 'readsRequest'> & { window: () => number | undefined; readsRequest?: boolean })
    | undefined {
    const option = policy.summarizer;
    if (option && 'summarize' in option && typeof option.summarize === 'function')
      return { summarizer: option, window: () => option.contextWindow };
    if (option && isBaseLlm(option)) {
      const routedName = listedNameOf(option);
      return {
        summarizer: optionModelSummarizer(option, agentRequest),
        routedName,
        window: () =>
          this.windowFor({ ...policy, contextWindow: undefined }, context, {
            model: option.model,
            routedName,
            inSession: inSessionWindow(usage, option, (name) => this.accepted.forUser(name, userOfContext(context))),
          }),
      };
    }
    const agent = context.invocationContext.agent;
    if (!isLlmAgent(agent)) return undefined;
    const model = agent.canonicalModel;
    const routedName = listedRoutedName(agent);
    // The agent's own model reads its own request: the provider's cache holds that prefix.
    return {
      summarizer: agentModelSummarizer(model, agentRequest),
      routedName,
      // The session's learned window of the agent's model bounds it through the agent's window (summarizerWindowFor).
      window: () => this.windowFor(policy, context, { model: model.model, routedName }),
      readsRequest: true,
    };
  }

  /**
   * A summarizer model's window: a maximum it stated in a rejection of a summary request wins when smaller, one
   * stated in this session (kept in the agent's usage record, `inSession`), in a session of this user, or confirmed.
   */
  private windowFor(policy: ResolvedPolicy, context: Context, summarizer: SummarizerModel): number {
    const { model, routedName, inSession } = summarizer;
    const resolved = this.resolveNamed(policy, model, routedName);
    const name = modelKey(model ?? '');
    const learned = [this.learnedFor(name, userOfContext(context)), inSession].filter((value) => value !== undefined);
    if (learned.length === 0) this.warnIfUnknown(resolved, model);
    return Math.min(resolved.window, ...learned);
  }

  /** Whether `max` is the known window of one of routed `model`'s members (estimate/model-registry.ts). */
  isMemberWindow = (model: string | undefined, max: number) => isMemberWindow(model, max, this.options.modelWindows);

  /**
   * A renamed `RoutedLlm` the user gave no window (by `contextWindow` or `modelWindows` under its name): the smallest
   * of its models' (adk/runtime/listed-routed-name.ts), even when its name is a known model's (the tenth trial's
   * router named 'gemini-2.5-flash' was held to that model's window, over its 8k model's).
   */
  private resolveNamed(policy: ResolvedPolicy, model: string | undefined, routedName: string | undefined) {
    const resolved = this.resolve(policy, model);
    const given = resolved.source === 'override' || resolved.source === 'table';
    return routedName !== undefined && !given ? this.resolve(policy, routedName) : resolved;
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

/**
 * The window a separate summarizer model stated in this session (the agent's usage record), held to the bounds of
 * a statement as the agent's learned window in state is (usage/learned-window.ts). Read only for such a model.
 */
function inSessionWindow(
  usage: UsageRecord,
  summarizer: { readonly model?: string },
  acceptedBy: (name: string) => AcceptedSize | undefined,
): number | undefined {
  const name = modelKey(summarizer.model ?? '');
  const stored = usage.summarizerWindowModel === name ? usage.summarizerWindow : undefined;
  return stored !== undefined && stored >= windowFloor([acceptedBy(name)]) ? stored : undefined;
}
