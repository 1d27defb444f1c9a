/**
 * What an agent's usage record keeps of Gemini's Interactions API (src/interactions/): whether the
 * last call went through it, the estimate of the chain the server holds, and the fresh chains the
 * guard started.
 */
import { MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import type { FieldReader } from '../state/field-reader.js';

export interface UsageServerChain {
  /** True when the agent's last call went through the Interactions API (history held server-side). */
  readonly interactionsApi?: boolean | undefined;
  /**
   * Calibrated estimate of what the server-side interaction chain holds after the last call (every
   * content since the chain began, with the system instruction and tools): what the provider
   * counts as the next call's input before its new turn. Undefined outside Interactions mode.
   */
  readonly serverChainTokens?: number | undefined;
  /** Chains the guard started afresh (at the threshold, or after an overflow), in this session. */
  readonly freshChains?: number | undefined;
}

export function decodeServerChain(read: FieldReader): UsageServerChain {
  return {
    interactionsApi: read.boolean('interactionsApi') || undefined,
    serverChainTokens: read.tokens('serverChainTokens', MAX_PLAUSIBLE_TOKENS),
    freshChains: read.tokens('freshChains', MAX_PLAUSIBLE_TOKENS),
  };
}

/** The record after a call: in Interactions mode, the chain it leaves on the server; else no chain. */
export function withServerChain<T extends UsageServerChain>(
  usage: T,
  chain: { readonly interactions: boolean; readonly calibrated: number; readonly fresh: boolean },
): T {
  if (!chain.interactions) {
    if (usage.interactionsApi === undefined && usage.serverChainTokens === undefined) return usage;
    return { ...usage, interactionsApi: undefined, serverChainTokens: undefined };
  }
  return {
    ...usage,
    interactionsApi: true,
    serverChainTokens: chain.calibrated,
    freshChains: (usage.freshChains ?? 0) + (chain.fresh ? 1 : 0),
  };
}
