/**
 * Session-state keys used by ContextGuard, one set per agent.
 *
 * Keys are session-scoped on purpose: never ADK's `app:`, `user:` or `temp:`
 * prefixes, so a summary can never leak into another session or user, and it is
 * persisted with the session by every session service.
 */

/** Prefix of every key this package writes. */
export const STATE_PREFIX = 'context_guard';

interface GuardStateKeys {
  /** The summary and its watermark (written only when a compaction happens). */
  readonly summary: string;
  /** Calibration and counters (written on every model call; small). */
  readonly usage: string;
  /** The audit record of the agent's last compaction. */
  readonly lastCompaction: string;
  /**
   * The old list of pinned context, read and never written: every pin now has its own key under
   * `pinPrefix` (see memory/stored-pins.ts); the agent name `*` holds pins for every agent.
   */
  readonly pins: string;
  /** Prefix of the pins' keys, one key per pin (`<prefix><pin id>`), so no pin's write replaces another's. */
  readonly pinPrefix: string;
  /** Count and last record of tool results truncated for the agent. */
  readonly toolTruncations: string;
  /**
   * Set by `requestCompaction` (the request's id; the time in older versions): pending while it differs from
   * `compactionRequestHandled`, and that call's compaction is `Manual` (trigger/compaction-request.ts).
   */
  readonly compactionRequest: string;
  /** The id of the last request a call served; the mark itself is never cleared, so a newer one is not lost. */
  readonly compactionRequestHandled: string;
  /** How far old tool results are masked (see masking/mask-observations.ts). */
  readonly mask: string;
  /** The claim of the summary being prepared in the background, by whichever replica (see preparation/prepared-record.ts). */
  readonly preparation: string;
  /** A summary prepared in the background, written when it is made; applied at the threshold by any replica. */
  readonly prepared: string;
}

export function stateKeysFor(agentName: string): GuardStateKeys {
  return {
    summary: `${STATE_PREFIX}:${agentName}:summary`,
    usage: `${STATE_PREFIX}:${agentName}:usage`,
    lastCompaction: `${STATE_PREFIX}:${agentName}:last_compaction`,
    pins: `${STATE_PREFIX}:${agentName}:pins`,
    pinPrefix: `${STATE_PREFIX}:${agentName}:pin:`,
    toolTruncations: `${STATE_PREFIX}:${agentName}:tool_truncations`,
    compactionRequest: `${STATE_PREFIX}:${agentName}:compaction_request`,
    compactionRequestHandled: `${STATE_PREFIX}:${agentName}:compaction_request_handled`,
    mask: `${STATE_PREFIX}:${agentName}:mask`,
    preparation: `${STATE_PREFIX}:${agentName}:preparation`,
    prepared: `${STATE_PREFIX}:${agentName}:prepared`,
  };
}

const USAGE_KEY = new RegExp(`^${STATE_PREFIX}:(.+):usage$`);

/** The agent whose usage record `key` is (`stateKeysFor(agent).usage`), or undefined for any other key. */
export function agentOfUsageKey(key: string): string | undefined {
  const match = USAGE_KEY.exec(key);
  return match?.[1] || undefined;
}
