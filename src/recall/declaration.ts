/**
 * Whether the guard declares its own recall tool on an agent's requests (src/adk/tools/declare-recall-tool.ts):
 * wherever masking for cost is on, unless the declaration would crowd a window that is mostly
 * fixed text already. The inputs are the same on every call of an agent on one model (its system
 * instruction, its tools, the window), so the tools sent do not change from call to call.
 */
import type { ResolvedPolicy } from '../options.js';
import { maskingForCostOn } from '../masking/mask-stale-output.js';

/**
 * Most of the window the system instruction and tool declarations, the recall tool's included,
 * may take (heuristic tokens) for the guard to add the tool. Beyond it the window is mostly fixed
 * text: masking for cost seldom pays there (the threshold is a few turns away), and the
 * declaration itself could push a request over (a 12k-character system prompt on an 8k window,
 * simulator scenario `CompactionNoInfiniteLoop`). Masking for cost then stays off.
 */
export const RECALL_DECLARATION_MAX_FIXED_SHARE = 0.25;

/**
 * Most of the window the recall tool's declaration alone may take for the guard to add it. It is sent on
 * every call; on a small window it costs room that brings every compaction sooner, and masking for cost
 * seldom runs there (the threshold is a few turns away): measured on the simulator suite, declaring it on
 * 8k windows cost more summaries than masking for cost saved (docs/design.md).
 */
export const RECALL_DECLARATION_MAX_WINDOW_SHARE = 0.01;

interface RecallDeclarationInput {
  readonly policy: Pick<ResolvedPolicy, 'maskKeepRecent' | 'maskStaleOutputTokens'>;
  /** Heuristic tokens of the request's system instruction and tool declarations, without the recall tool. */
  readonly fixedTokens: number;
  /** Heuristic tokens of the recall tool's declaration. */
  readonly declarationTokens: number;
  readonly window: number;
}

export function shouldDeclareRecall(input: RecallDeclarationInput): boolean {
  return (
    maskingForCostOn(input.policy) &&
    input.declarationTokens <= input.window * RECALL_DECLARATION_MAX_WINDOW_SHARE &&
    input.fixedTokens + input.declarationTokens <= input.window * RECALL_DECLARATION_MAX_FIXED_SHARE
  );
}
