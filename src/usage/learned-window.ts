/**
 * Which window an agent's requests are measured against, when a provider has
 * stated a maximum in a rejection ("... exceeds the maximum number of tokens
 * allowed (8000)").
 *
 * A maximum is learned only when it was earned: the provider's own statement
 * at the start of its message (estimate/calibration.ts), its stated size of the
 * request consistent with what was sent, and the maximum at least 1,024 and at
 * least every request the same model already accepted (in the session, and in
 * this process). A value read back from state is held to the same bounds.
 *
 * Precedence: a stated maximum is the provider's word about what it accepts,
 * so it replaces the registry's window and the default. An explicit
 * `contextWindow` (or `modelWindows` entry) is the user's word and is kept
 * when it is smaller (a user may want to spend less); when it is larger the
 * provider wins, because a request must fit what the provider accepts, and the
 * shell logs that once. Pure functions over plain data.
 */
import type { ResolvedWindow, WindowSource } from '../estimate/model-registry.js';
import { modelKey } from '../estimate/model-registry.js';
import { routedMembers } from '../estimate/routed-model.js';
import { MIN_PLAUSIBLE_WINDOW, NO_BUDGET, STATED_SIZE_RATIO } from './window.js';
import { rejectedBound } from './rejected-bound.js';
import { plausibleTokenCount } from '../state/codec.js';
import { type UsageRecord } from './stored-usage.js';
import { acceptedAfterFailover, stickyFailoverWindow } from './failover.js';
import { type WindowOrigin } from './agent-usage-figures.js';

/** The largest request a model accepted: the provider's real count, and the estimate of what was sent. */
export interface AcceptedSize {
  readonly tokens?: number | undefined;
  readonly estimate?: number | undefined;
}

export interface WindowChoice {
  readonly window: number;
  readonly origin: WindowOrigin;
  /** Set when a stated maximum overrode a larger `contextWindow` option: that option's value. */
  readonly overriddenOption?: number | undefined;
}

export function originOf(source: WindowSource): WindowOrigin {
  if (source === 'override' || source === 'table') return 'option';
  if (source === 'default') return 'default';
  return 'registry';
}

/** A provider's stated maximum, if plausible as a window. */
export function plausibleWindow(limit: number | undefined): number | undefined {
  return plausibleTokenCount(limit, MIN_PLAUSIBLE_WINDOW);
}

/**
 * The smallest window a model can have: 1,024, and every request it accepted by the provider's own count. Of a request
 * whose count was never reported, only the guard's estimate is known, and it is not the provider's count: it bounds a
 * maximum only where a rejection is being read (`ratio`: the stated size of the rejected request over its estimate,
 * or 1 where none was stated), at that many provider tokens times `ratio`, at most 1; and it bounds the guard's own
 * measure of a rejected request (`ratio` 1), which is an estimate too. Taken one for one everywhere, a
 * provider that counts fewer tokens than the estimate and reports no usage had its stated maximum refused, its window
 * shown as the registry's and rejections repeated (the twenty-third outside trial: 10 rejections instead of 1).
 */
export function windowFloor(accepted: ReadonlyArray<AcceptedSize | undefined>, ratio?: number): number {
  let floor = MIN_PLAUSIBLE_WINDOW;
  for (const size of accepted) {
    floor = Math.max(floor, size?.tokens ?? 0);
    if (ratio !== undefined) floor = Math.max(floor, Math.floor((size?.estimate ?? 0) * Math.min(1, ratio)));
  }
  return floor;
}

/** The session's accepted size, when it was accepted by `model`. */
export function acceptedIn(usage: UsageRecord, model: string | undefined): AcceptedSize | undefined {
  return usage.acceptedModel === modelKey(model ?? '')
    ? { tokens: usage.acceptedTokens, estimate: countedEstimate(usage) }
    : undefined;
}

/**
 * The accepted estimate at no more than the accepted real count: a session stored before counts were
 * taken so (recordAccepted) may hold an estimate above the window, which would refuse its stated maximum.
 */
function countedEstimate(usage: Pick<UsageRecord, 'acceptedTokens' | 'acceptedEstimate'>): number | undefined {
  const { acceptedTokens, acceptedEstimate } = usage;
  return acceptedTokens !== undefined && acceptedEstimate !== undefined
    ? Math.min(acceptedEstimate, acceptedTokens)
    : acceptedEstimate;
}

/**
 * The usage record after `model` accepted a request: the largest real count and estimate of the session's
 * accepted requests. A request the provider counted is taken at no more than its count: calibration trusts a
 * count below the estimate (estimate/calibration.ts), so an accepted estimate may exceed the window, and
 * taken one for one (windowFloor) it would refuse, or drop, the provider's stated maximum.
 */
export function recordAccepted(stored: UsageRecord, model: string | undefined, realPromptTokens?: number): UsageRecord {
  // A request above a failover member's window accepted: the router is on the large member again (usage/failover.ts).
  const usage = acceptedAfterFailover(stored, plausibleTokenCount(realPromptTokens, 1) ?? stored.lastCalibrated);
  const name = modelKey(model ?? '');
  const before: Partial<UsageRecord> = usage.acceptedModel === name ? usage : {};
  const counted = plausibleTokenCount(realPromptTokens, 1);
  // Only a count consistent with what was sent, as for the process (`acceptedByCall`): a count far above it held the
  // session above the windows its rejections stated (review 17).
  const real = counted !== undefined && statedSizeConsistent(counted, usage.sentEstimate) ? counted : undefined;
  const tokens = maxOf(before.acceptedTokens, real);
  const sent =
    real !== undefined && usage.sentEstimate !== undefined ? Math.min(usage.sentEstimate, real) : usage.sentEstimate;
  const estimate = maxOf(before.acceptedModel === undefined ? undefined : countedEstimate(before), sent);
  if (usage.acceptedModel === name && tokens === usage.acceptedTokens && estimate === usage.acceptedEstimate)
    return usage;
  return { ...usage, acceptedModel: name, acceptedTokens: tokens, acceptedEstimate: estimate };
}

/**
 * What one accepted call tells every session of the process about `model`: its own count, when it is consistent with
 * the estimate that was sent (`statedSizeConsistent`), and that estimate, at no more than the count. Never the
 * session's record (a tool can write a forged one) nor another call's count: the eighteenth outside trial fed the
 * process's accepted floor from one session's state, or from a provider's count ten times the request's size, and
 * another user's sessions then learned no window from their rejections (ten rejected calls instead of one).
 */
export function acceptedByCall(
  usage: Pick<UsageRecord, 'sentEstimate'>,
  realPromptTokens: number | undefined,
): AcceptedSize {
  const real = plausibleTokenCount(realPromptTokens, 1);
  const sent = usage.sentEstimate;
  const tokens = real !== undefined && statedSizeConsistent(real, sent) ? real : undefined;
  return { tokens, estimate: sent !== undefined && tokens !== undefined ? Math.min(sent, tokens) : sent };
}

function maxOf(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.max(a, b);
}

/** Whether a stated size of the rejected request can be about the request whose estimate was `sentEstimate` (unknown: yes). */
export function statedSizeConsistent(promptTokens: number, sentEstimate: number | undefined): boolean {
  if (sentEstimate === undefined || sentEstimate <= 0) return true;
  const ratio = promptTokens / sentEstimate;
  return ratio >= 1 / STATED_SIZE_RATIO && ratio <= STATED_SIZE_RATIO;
}

/** The window the session's state learned for `model`, unless a request this process saw `model` accept contradicts it. */
export function learnedFromState(
  usage: UsageRecord,
  model: string | undefined,
  processAccepted: AcceptedSize | undefined,
): { readonly window?: number | undefined; readonly contradicted: boolean } {
  return stateWindowOf(usage, modelKey(model ?? ''), processAccepted);
}

/** `learnedFromState` for a model key (estimate/model-registry.ts `modelKey`). */
function stateWindowOf(
  usage: UsageRecord,
  name: string,
  processAccepted: AcceptedSize | undefined,
): { readonly window?: number | undefined; readonly contradicted: boolean } {
  const window = usage.learnedWindowModel === name ? usage.learnedWindow : undefined;
  if (window === undefined) return { contradicted: false };
  return window < windowFloor([processAccepted]) ? { contradicted: true } : { window, contradicted: false };
}

/** The window learned for `model`: from the agent's usage record (when it was learned for that model) and the process. */
export function learnedWindowFor(
  usage: UsageRecord,
  model: string | undefined,
  processWindow: number | undefined,
  processAccepted?: AcceptedSize,
): number | undefined {
  return learnedOf(stateWindowOf(usage, modelKey(model ?? ''), processAccepted).window, processWindow, processAccepted);
}

function learnedOf(
  fromState: number | undefined,
  processWindow: number | undefined,
  processAccepted: AcceptedSize | undefined,
): number | undefined {
  const fromProcess =
    processWindow !== undefined && processWindow >= windowFloor([processAccepted]) ? processWindow : undefined;
  if (fromState === undefined) return fromProcess;
  return fromProcess === undefined ? fromState : Math.min(fromState, fromProcess);
}

/** What is known of a request's model when its window is chosen: the registry's (or options') answer and this process's learning. */
interface WindowEvidence {
  /** The model's key (estimate/model-registry.ts `modelKey`). */
  readonly model: string;
  /** The registry's or the options' window. */
  readonly resolved: ResolvedWindow;
  /** A maximum a provider stated for this model in this process. */
  readonly processWindow?: number | undefined;
  /** The largest request this model accepted in this process. */
  readonly processAccepted?: AcceptedSize | undefined;
  /** A `RoutedLlm` given its own name (its name lists no models; adk/runtime/listed-routed-name.ts). */
  readonly renamedRouter?: boolean;
}

export interface WindowDecision extends WindowChoice {
  /** Whether a maximum was learned (from the session's state or the process). */
  readonly learned: boolean;
  /** Set when the session's state holds a learned window that a request accepted in this process contradicts. */
  readonly contradicted: boolean;
  /** Set when the window is the session's rejected size (usage/rejected-bound.ts), not a stated maximum. */
  readonly bounded: boolean;
  /** Set when the stated maximum used came from the session's state alone, not a rejection this process read. */
  readonly stateOnly: boolean;
}

/**
 * The window an agent's request is measured against, decided once from the session's usage record and `evidence`:
 * a stated maximum as `chooseWindow` says, then below a request of this session the model rejected as too long.
 */
export function decideWindow(usage: UsageRecord, evidence: WindowEvidence): WindowDecision {
  const { model, resolved, processWindow, processAccepted } = evidence;
  const fromState = stateWindowOf(usage, model, processAccepted);
  const learned = learnedOf(fromState.window, processWindow, processAccepted);
  // The rejected size is the guard's measure, not a provider's statement: its own estimates bound it (review 18).
  const bound = rejectedBound(usage, model, windowFloor([acceptedIn(usage, model), processAccepted], 1));
  // A RoutedLlm's maximum is stated by whichever of its models rejected last: never above the smallest's window.
  const routed = evidence.renamedRouter === true || routedMembers(model) !== undefined;
  const capped = learned !== undefined && routed ? Math.min(learned, resolved.window) : learned;
  const stated = chooseWindow(resolved, capped);
  // A router taken to stay on a smaller member holds the session to its window, whatever was accepted before.
  const held = boundedChoice(stated, stickyFailoverWindow(usage, model, routed), resolved.window);
  const choice = boundedChoice(held, bound, resolved.window);
  return {
    ...choice,
    learned: learned !== undefined || choice !== stated,
    contradicted: fromState.contradicted,
    bounded: choice !== stated,
    stateOnly: learned !== undefined && learned !== learnedOf(undefined, processWindow, processAccepted),
  };
}

/** `choice`, or the session's rejected size when smaller (an option it overrides named, as a stated maximum's). */
function boundedChoice(choice: WindowChoice, bound: number | undefined, resolved: number): WindowChoice {
  if (bound === undefined || bound >= choice.window) return choice;
  const overridden = choice.overriddenOption ?? (choice.origin === 'option' ? resolved : undefined);
  return { window: bound, origin: 'learned', ...(overridden === undefined ? {} : { overriddenOption: overridden }) };
}

/** The window to use, given the registry's (or options') answer and a learned maximum. */
export function chooseWindow(resolved: ResolvedWindow, learned: number | undefined): WindowChoice {
  const origin = originOf(resolved.source);
  if (learned === undefined) return { window: resolved.window, origin };
  if (origin !== 'option') return { window: learned, origin: 'learned' };
  if (learned < resolved.window) return { window: learned, origin: 'learned', overriddenOption: resolved.window };
  return { window: resolved.window, origin };
}

/** The usage record after a rejection that stated `limit` for `model` (unchanged when it stated none or none believable). */
export function recordStatedWindow(
  usage: UsageRecord,
  model: string | undefined,
  limit: number | undefined,
  floor: number = MIN_PLAUSIBLE_WINDOW,
): UsageRecord {
  const window = plausibleWindow(limit);
  if (window === undefined || window < floor) return usage;
  const learned = { ...usage, learnedWindow: window, learnedWindowModel: modelKey(model ?? '') };
  // The next call measures against it (see chooseWindow): status shows it now, not the window that was too large.
  return usage.window === undefined || window < usage.window
    ? { ...learned, window, windowSource: 'learned', ...NO_BUDGET }
    : learned;
}
