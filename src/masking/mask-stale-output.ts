/**
 * Masking for cost, when nothing is due: tool results are re-sent, and billed, on every later call.
 * Once masking them saves at least `maskStaleOutputTokens` and pays for the cached prefix it breaks
 * (masking/pays-for-cache.ts), they are masked at once, with no model call, even with the window
 * far from full. At the agent's first call of a turn that is the completed turns' results; inside a
 * tool loop (one user message, many calls) also the loop's own completed steps, all but the latest
 * `maskKeepRecent` results and never the latest call. The user's message is never masked. Between
 * two batches the request grows only at its end, so the provider's cached prefix holds
 * (docs/design.md, "Three remedies"). */
import type { Content } from '@google/genai';
import { hasFunctionResponse, isUserRequest, latestUserRequestIndex } from '../content/content-shape.js';
import { holdsToolResult, isOwnToolResult } from '../content/tool-result.js';
import type { ResolvedPolicy } from '../options.js';
import { maskStep, type MaskStep, type MaskStepInput } from './mask-for-room.js';
import { maskKeepFrom } from './mask-observations.js';
import { expectedLoopRereads, expectedRereads, maskingPays, type RereadInput } from './pays-for-cache.js';

export interface StaleOutputInput extends Omit<MaskStepInput, 'keepRecent' | 'target'> {
  readonly policy: Pick<ResolvedPolicy, 'maskKeepRecent' | 'maskStaleOutputTokens'>;
  /** Heuristic estimate of the request as it would be sent unmasked. */
  readonly estimate: number;
  /** What the cache charges and how long the masked span would be read again. */
  readonly cache: Omit<RereadInput, 'calibratedAfter'> & {
    /** Calibrated tokens per heuristic token on this call. */
    readonly factor: number;
    /** Cached over uncached price of the agent's model. */
    readonly cachedPriceRatio: number;
    /**
     * Heuristic tokens of the recall tool's declaration when it is not sent yet: the masking
     * would add it, before every content, so it would rewrite the whole history (adk/tools/declare-recall-tool.ts).
     */
    readonly declaration?: number | undefined;
  };
}

/**
 * Model calls a turn's loop has made before its own results may be masked for cost: a short loop gathers what its
 * answer needs (three pages fetched to be compared: the thirteenth outside trial), and observation masking for coding
 * agents kept the latest ten steps (docs/design.md, "Inside a tool loop").
 */
const LONG_LOOP_CALLS = 10;

/** A content of the turn's own work: the model's reply or call, or a result of its own (a code run's as ADK sends it too). */
const isOwnWork = (content: Content): boolean => content.role !== 'user' || isOwnToolResult(content);

/**
 * Where a masking for cost may stop and what it reads, on this call: at the agent's first call of a
 * turn (after the user's message, at most other agents' context), the completed turns, and every
 * content from the user's message on is new to this request; inside a tool loop, also the loop's
 * results but the latest `maskKeepRecent`, and only the latest call and its results are new.
 */
interface MaskReach {
  /** Tool results before this index may be masked. */
  readonly end: number;
  /** Contents from here on are new to this request: uncached whether it masks or not. */
  readonly freshFrom: number;
  /** The loop's model calls so far in this turn (absent at the turn's first call) and the tokens they added. */
  readonly loop?: { readonly calls: number; readonly tokens: number } | undefined;
}

/**
 * Index of the turn's user message: a user content right after a tool result (and other such contents) was added by
 * that tool to the request (ADK's load_artifacts, load_mcp_resource, load_skill_resource): the loop goes on past it.
 */
function turnStartOf(contents: readonly Content[]): number {
  let start = latestUserRequestIndex(contents);
  for (;;) {
    let before = start - 1;
    // Other added contents may stand between; another agent's events ("For context:") may not: a user's
    // message after a turn that ended on a tool result and another agent's reply starts a new turn.
    while (before >= 0 && isUserRequest(contents[before])) before--;
    if (before < 0 || !hasFunctionResponse(contents[before])) return start;
    const earlier = latestUserRequestIndex(contents, before);
    if (earlier < 0) return start;
    start = earlier;
  }
}

function reachOf(contents: readonly Content[], tokens: readonly number[], keepRecent: number): MaskReach | undefined {
  const turnStart = turnStartOf(contents);
  if (turnStart < 0) return undefined;
  let calls = 0;
  let latestCall = -1;
  let turnTokens = 0;
  for (let i = turnStart + 1; i < contents.length; i++) {
    const content = contents[i];
    if (content === undefined || !isOwnWork(content)) continue;
    turnTokens += tokens[i] ?? 0;
    if (content.role === 'model') {
      calls++;
      latestCall = i;
    }
  }
  // The first call of the first turn: nothing before the user's message to mask.
  if (calls === 0) return turnStart > 0 ? { end: turnStart, freshFrom: turnStart } : undefined;
  // The latest call and its results are kept (maskKeepFrom keeps at least the latest result).
  return {
    end: calls < LONG_LOOP_CALLS ? turnStart : Math.min(maskKeepFrom(contents, keepRecent), latestCall),
    freshFrom: latestCall,
    loop: { calls, tokens: turnTokens },
  };
}

/** Tokens of the contents with a tool result (this agent's, another's, a code run's) between the stored watermarks and `end`. */
function unmaskedResultTokens(input: StaleOutputInput, end: number): number {
  const { contents, tokens } = input.source;
  let total = 0;
  for (let i = Math.max(input.coverage.covered, input.maskedUpTo); i < end; i++)
    if (holdsToolResult(contents[i])) total += tokens[i] ?? 0;
  return total;
}

/** Whether the policy masks for cost at all (the shell then declares the recall tool from the first call). */
export function maskingForCostOn(policy: Pick<ResolvedPolicy, 'maskKeepRecent' | 'maskStaleOutputTokens'>): boolean {
  return policy.maskKeepRecent > 0 && policy.maskStaleOutputTokens > 0;
}

/**
 * The masking to apply for cost, or `undefined` when it is off, would save too little, would not pay
 * for the cache it breaks, or when no recall tool could read a masked result back (a tool of the
 * agent's own took its name).
 */
export function maskStaleOutput(input: StaleOutputInput): MaskStep | undefined {
  const { maskKeepRecent, maskStaleOutputTokens } = input.policy;
  if (!maskingForCostOn(input.policy) || input.source.hint.recallToolName === undefined) return undefined;
  const reach = reachOf(input.source.contents, input.source.tokens, maskKeepRecent);
  if (!reach) return undefined;
  // A masking saves at most the tokens of the results it replaces: while those are too few, no
  // placeholder is built (this runs at every call).
  if (unmaskedResultTokens(input, reach.end) < maskStaleOutputTokens) return undefined;
  const step = maskStep({ ...input, keepRecent: maskKeepRecent, target: Number.POSITIVE_INFINITY }, reach.end);
  if (!step || input.estimate - step.estimate < maskStaleOutputTokens) return undefined;
  return paysForCache(input, step, reach) ? step : undefined;
}

/** The masking's trade against the provider's cache (masking/pays-for-cache.ts). */
function paysForCache(input: StaleOutputInput, step: MaskStep, reach: MaskReach): boolean {
  const { contents } = input.source;
  const declaration = input.cache.declaration ?? 0;
  // A declaration added to the tools changes the request's head: the provider then reads all of it
  // anew, system instruction, tools and summary included, not only the contents.
  let rewritten = declaration > 0 ? declaration + input.fixedTokens + input.summaryTokens : 0;
  let changed = declaration > 0;
  const from = declaration > 0 ? input.coverage.covered : Math.max(input.coverage.covered, input.maskedUpTo);
  for (let i = from; i < reach.freshFrom; i++) {
    // Contents before the first placeholder are sent as before, and stay cached.
    changed ||= step.view[i] !== contents[i];
    if (changed) rewritten += step.viewTokens[i] ?? 0;
  }
  const { factor, cachedPriceRatio } = input.cache;
  const after = (step.estimate + declaration) * factor;
  const calls = reach.loop
    ? expectedLoopRereads({
        callsInTurn: reach.loop.calls,
        growthPerCall: (reach.loop.tokens * factor) / reach.loop.calls,
        threshold: input.cache.threshold,
        calibratedAfter: after,
      })
    : expectedRereads({ ...input.cache, calibratedAfter: after });
  return maskingPays({
    before: input.estimate * factor,
    after,
    rewritten: rewritten * factor,
    calls,
    cachedPriceRatio,
  });
}
