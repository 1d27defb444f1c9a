/**
 * Masking for cost, when nothing is due: tool results of completed turns are
 * re-sent, and billed, on every later call. Once masking them saves at least
 * `maskStaleOutputTokens` and pays for the cached prefix it breaks
 * (masking/pays-for-cache.ts), they are masked at once, with no model call, even with
 * the window far from full. The masking stops at the in-flight turn's user
 * message, so the turn being worked on is never touched, and it happens at a
 * turn's first call: the bytes before the in-flight turn then stay the same
 * until the next batch, which keeps the provider's cached prefix
 * (docs/design.md, "Three remedies").
 */
import type { Content } from '@google/genai';
import { hasFunctionResponse, latestUserRequestIndex } from '../content/content-shape.js';
import type { ResolvedPolicy } from '../options.js';
import { maskStep, type MaskStep, type MaskStepInput } from './mask-for-room.js';
import { expectedRereads, maskingPays, type RereadInput } from './pays-for-cache.js';

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

/** A content of the turn's own work: the model's reply or call, or a tool result. */
const isOwnWork = (content: Content): boolean => content.role !== 'user' || hasFunctionResponse(content);

/** Tokens of the contents with a tool result between the stored watermarks and `end`. */
function unmaskedResultTokens(input: StaleOutputInput, end: number): number {
  const { contents, tokens } = input.source;
  let total = 0;
  for (let i = Math.max(input.coverage.covered, input.maskedUpTo); i < end; i++)
    if (hasFunctionResponse(contents[i])) total += tokens[i] ?? 0;
  return total;
}

/** Whether the policy masks for cost at all (the shell then declares the recall tool from the first call). */
export function maskingForCostOn(policy: Pick<ResolvedPolicy, 'maskKeepRecent' | 'maskStaleOutputTokens'>): boolean {
  return policy.maskKeepRecent > 0 && policy.maskStaleOutputTokens > 0;
}

/**
 * The masking to apply for cost, or `undefined` when it is off, would save too little, or when no
 * recall tool could read a masked result back (a tool of the agent's own took its name).
 */
export function maskStaleOutput(input: StaleOutputInput): MaskStep | undefined {
  const { maskKeepRecent, maskStaleOutputTokens } = input.policy;
  if (!maskingForCostOn(input.policy) || input.source.hint.recallToolName === undefined) return undefined;
  const { contents } = input.source;
  const turnStart = latestUserRequestIndex(contents);
  // Only at this agent's first call of the turn (after the user's message, at most other agents'
  // context): masking later in the turn would change the prefix the turn's earlier calls cached.
  if (turnStart <= 0 || contents.slice(turnStart + 1).some(isOwnWork)) return undefined;
  // A masking saves at most the tokens of the results it replaces: while those are too few, no
  // placeholder is built (this runs at every turn's first call).
  if (unmaskedResultTokens(input, turnStart) < maskStaleOutputTokens) return undefined;
  const step = maskStep({ ...input, keepRecent: maskKeepRecent, target: Number.POSITIVE_INFINITY }, turnStart);
  if (!step || input.estimate - step.estimate < maskStaleOutputTokens) return undefined;
  return paysForCache(input, step, turnStart) ? step : undefined;
}

/** The masking's trade against the provider's cache (masking/pays-for-cache.ts). */
function paysForCache(input: StaleOutputInput, step: MaskStep, turnStart: number): boolean {
  const { contents } = input.source;
  const declaration = input.cache.declaration ?? 0;
  // A declaration added ahead of the contents changes the prefix from the first content on.
  let rewritten = declaration;
  let changed = declaration > 0;
  for (let i = declaration > 0 ? 0 : Math.max(input.coverage.covered, input.maskedUpTo); i < turnStart; i++) {
    // Contents before the first placeholder are sent as before, and stay cached.
    changed ||= step.view[i] !== contents[i];
    if (changed) rewritten += step.viewTokens[i] ?? 0;
  }
  const { factor, cachedPriceRatio } = input.cache;
  const after = (step.estimate + declaration) * factor;
  return maskingPays({
    before: input.estimate * factor,
    after,
    rewritten: rewritten * factor,
    calls: expectedRereads({ ...input.cache, calibratedAfter: after }),
    cachedPriceRatio,
  });
}
