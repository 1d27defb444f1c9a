/**
 * Pins as the shell handles them: added through a session's state (by the application, the pin
 * tool or first-request pinning), and the pins of a request fitted to the cap in force.
 */
import type { Context, LlmRequest, State } from '@google/adk';
import { contentText, isUserRequest } from '../../content/content-shape.js';
import {
  addPin,
  ALL_AGENTS,
  shouldTryFirstRequestPin,
  type AddPinResult,
  type Pin,
  type PinSource,
} from '../../memory/pins.js';
import { addedPinDelta, storedPins } from '../../memory/stored-pins.js';
import { fitPinsToCap } from '../../memory/fit-pins.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import type { UsageRecord } from '../../usage/stored-usage.js';
import type { GuardLogger, ResolvedPolicy } from '../../options.js';
import type { WarnOnce } from './warn-once.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

export class GuardPins {
  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly logger: GuardLogger,
    private readonly warnOnce: WarnOnce,
  ) {}

  /**
   * A pin added to the pins of a stored session's state, and the delta that stores it (not written: the caller
   * appends the event; empty when the pin was refused or already there).
   */
  addToRecord(
    state: Readonly<Record<string, unknown>>,
    agentName: string,
    text: string,
    cap: number,
  ): { result: AddPinResult; delta: Record<string, Pin> } {
    const candidate = newPin(text, 'application');
    const result = addPin(storedPins(state, agentName), candidate, cap, this.tokenizer, sharedPins(agentName, state));
    return { result, delta: addedPinDelta(agentName, result, candidate) };
  }

  /** Adds a pin through a callback or tool context's state: only the new pin's own key is written. */
  addInState(state: State, agentName: string, text: string, source: PinSource, cap: number): AddPinResult {
    const record = state.toRecord();
    const candidate = newPin(text, source);
    const result = addPin(storedPins(record, agentName), candidate, cap, this.tokenizer, sharedPins(agentName, record));
    for (const [key, pin] of Object.entries(addedPinDelta(agentName, result, candidate))) state.set(key, pin);
    return result;
  }

  /**
   * The agent's pins and the every-agent pins that fit `cap`; pins the first request when the policy asks. A refused pin
   * is noted in the usage record and tried again (and warned about) only under a larger cap.
   */
  forRequest(
    context: Context,
    policy: ResolvedPolicy,
    contents: readonly LlmRequest['contents'][number][],
    usage: UsageRecord,
    cap: number,
  ): { pins: Pin[]; usage: UsageRecord } {
    const agentName = context.agentName;
    // One read of the state per call: a first-request pin below adds only the agent's own key.
    const record = context.state.toRecord();
    let own = storedPins(record, agentName);
    let next = usage;
    if (
      policy.pinFirstRequest &&
      !own.some((pin) => pin.source === 'first-request') &&
      shouldTryFirstRequestPin(usage.firstRequestPinRefusedCap, cap)
    ) {
      // The first request with text: an image or file alone has none to pin.
      const first = contents.find((content) => isUserRequest(content) && contentText(content).length > 0);
      if (first) {
        const result = this.addInState(context.state, agentName, contentText(first), 'first-request', cap);
        if (result.ok) {
          own = result.pins;
        } else {
          next = { ...usage, firstRequestPinRefusedCap: cap };
          this.logger.warn(
            `${LOG_PREFIX} agent '${agentName}': the first request was not pinned: ${result.reason}. Not tried again unless the cap grows.`,
          );
        }
      }
    }
    const pins = [...sharedPins(agentName, record), ...own];
    return { pins: this.fit(agentName, pins, cap), usage: next };
  }

  /**
   * The pins that fit the cap of the window in force: a pin accepted under a larger window, or
   * written to state by hand, must not make every later turn fail. State keeps them whole.
   */
  private fit(agentName: string, pins: Pin[], cap: number): Pin[] {
    const fitted = fitPinsToCap(pins, cap, this.tokenizer);
    if (fitted.dropped.length === 0 && !fitted.cut) return pins;
    this.warnOnce.warn(
      `pins|${agentName}|${cap}|${pins.map((pin) => pin.id).join(',')}`,
      `${LOG_PREFIX} agent '${agentName}': pins take more than their cap of ${cap} tokens under the current window; ` +
        `${fitted.dropped.length} left out of the request (oldest first)${fitted.cut ? ', one cut head and tail' : ''}. They stay in state.`,
    );
    return fitted.pins;
  }
}

/** The `*` pins that ride in an agent's requests beside its own (none for `*` itself). */
function sharedPins(agentName: string, state: Readonly<Record<string, unknown>>): Pin[] {
  return agentName === ALL_AGENTS ? [] : storedPins(state, ALL_AGENTS);
}

/** A fixed-width counter in the id, so that pins made in the same millisecond by this process sort in order. */
let pinSequence = 0;

function newPin(text: string, source: PinSource): Pin {
  const now = Date.now();
  const sequence = (pinSequence++ % 36 ** 6).toString(36).padStart(6, '0');
  return {
    id: `pin-${now.toString(36)}-${sequence}-${Math.random().toString(36).slice(2, 8)}`,
    text,
    source,
    createdAt: now,
  };
}
