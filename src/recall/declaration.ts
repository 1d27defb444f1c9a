/**
 * Whether the guard may declare its own recall tool on an agent's requests (src/adk/tools/declare-recall-tool.ts):
 * wherever masking for cost is on, unless the declaration would crowd a window that is mostly
 * fixed text already; and when it sends it (`recallDue`): only once a request refers to it.
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
  /**
   * The session's requests of this agent declared the tool before: it stays whatever the shares say now. An
   * instruction filled from state that grows past a quarter of the window took it away mid-session (the thirty-seventh
   * outside trial): facts in masked results became unrecoverable, and the model's next call of the tool, still in its
   * history, was an error event ADK handed the user ("not found in the toolsDict").
   */
  readonly declaredBefore?: boolean | undefined;
}

export function shouldDeclareRecall(input: RecallDeclarationInput): boolean {
  if (!maskingForCostOn(input.policy)) return false;
  return input.declaredBefore === true || (withinWindowShare(input) && !crowdedByFixedPart(input));
}

/** The declaration alone fits the window's share for it. */
export function withinWindowShare(input: RecallDeclarationInput): boolean {
  return input.declarationTokens <= input.window * RECALL_DECLARATION_MAX_WINDOW_SHARE;
}

/** The system instruction and tools, with the declaration, take more than their share of the window. */
export function crowdedByFixedPart(input: RecallDeclarationInput): boolean {
  return input.fixedTokens + input.declarationTokens > input.window * RECALL_DECLARATION_MAX_FIXED_SHARE;
}

/**
 * Cut results whose stored handle names the recall tool, from the agent's `tool_truncations` record. A record
 * without `named` was written by a release before 2026-12-07 that made every cut count, and offloaded ones named the
 * tool: its cuts are taken as named, or a session upgraded mid-way lost the tool its history names (review 38).
 */
export function namedCutsOf(record: unknown): number {
  if (typeof record !== 'object' || record === null) return 0;
  const { named, count } = record as { named?: unknown; count?: unknown };
  if (typeof named === 'number') return named;
  return typeof count === 'number' ? count : 0;
}

/** What the agent's session already holds that refers to the recall tool, and what this call adds. */
interface RecallDueInput {
  /** A stored summary or mask watermark of the agent (their texts name the tool). */
  readonly storedRewrite: boolean;
  /** Tool results of the agent cut and stored as artifacts whose handles name the tool. */
  readonly namedCuts: number;
  /** This call masks or summarizes. */
  readonly rewritesNow: boolean;
  /**
   * The session's requests of the agent carried it: the model may call it again (its earlier calls are in its
   * history), and a tool that vanished would be ADK's "not found in the toolsDict" error event.
   */
  readonly declaredBefore?: boolean | undefined;
}

/**
 * Whether a permitted recall tool is sent on this call. Tool declarations come before the contents,
 * so a declaration appearing mid-way breaks the whole cached prefix, and one sent from the first
 * call costs its tokens on every call of a session that may never mask. It is sent from the first
 * call that masks, summarizes or follows a cut result stored with a handle that names it, which rewrites the prefix anyway (masking for
 * cost counts the declaration, and the head it sends again uncached, in its trade:
 * masking/mask-stale-output.ts), and from then on on every call, as what refers to it stays in the
 * session; so while nothing is masked the request is what ADK built, even where the system
 * instruction and tools alone are a cacheable head (docs/design.md, "When masking for cost pays").
 */
export function recallDue(input: RecallDueInput): boolean {
  return input.declaredBefore === true || input.storedRewrite || input.namedCuts > 0 || input.rewritesNow;
}
