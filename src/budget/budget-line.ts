/**
 * The budget the model sees (`budgetLine`): the figures of a request as the guard sends it, and
 * the one short line that carries them at the end of the request. The `context_status` tool
 * answers the same figures (adk/tools/context-status-tool.ts), and `status()` computes its
 * `turnsLeft` with the same rule, so the three never disagree.
 */

import type { Content } from '@google/genai';

/** What the model is told about its budget, in tokens of the calibrated estimate. */
export interface BudgetFigures {
  /** Calibrated estimate of the request as sent, this line included. */
  readonly usedTokens: number;
  readonly window: number;
  /** Where a compaction starts. */
  readonly threshold: number;
  /** usedTokens / window, in whole percent. */
  readonly percentUsed: number;
  /** Whole turns of the session's pace after this one before a turn's peak meets the threshold; undefined before the first full turn. */
  readonly turnsLeft: number | undefined;
  /** Inside a tool loop (the turn's second call on): its calls left before a request meets the threshold, at a step's pace. */
  readonly stepsLeft?: number | undefined;
  /** True when the next turn (or, with no pace yet, the last tenth before the threshold) reaches the threshold. */
  readonly compactionNear: boolean;
  /** The recall tool to read back what was masked or offloaded, when something is. */
  readonly recallTool: string | undefined;
  /** The pin tool the request declares, named while a compaction is near: what must outlive it can be pinned. */
  readonly pinTool?: string | undefined;
}

/** Share of the threshold past which a compaction is near while the session's pace is still unknown. */
const NEAR_SHARE_WITHOUT_PACE = 0.9;
/** Within this many turns of the threshold a compaction is near. */
const NEAR_TURNS = 1;
/** Within this many steps of a tool loop of the threshold a compaction is near. */
const NEAR_STEPS = 2;

/** How the session's turns grow: what pacing reads of the usage record (usage/turns.ts). */
export interface TurnPace {
  /** Tokens one turn adds, start to start. */
  readonly averageTurnTokens?: number | undefined;
  /** How far a turn's largest request rises above its first. */
  readonly averagePeakRise?: number | undefined;
  /** The current turn's first request. */
  readonly turnStartCalibrated?: number | undefined;
  /** Model calls of the current turn so far. */
  readonly turnCalls?: number | undefined;
  /** Tokens one step of a tool loop adds. */
  readonly averageStepTokens?: number | undefined;
}

/**
 * Whole turns after the current one before a turn's largest request meets `threshold`; undefined without a pace.
 * The current turn peaks at `used` or its start plus the usual rise, whichever is larger (a result of this turn
 * goes stale and is masked at the next), and each later turn's peak is `averageTurnTokens` higher.
 */
export function turnsLeftAt(
  used: number | undefined,
  threshold: number | undefined,
  pace: TurnPace,
  hardLimit?: number,
): number | undefined {
  const { averageTurnTokens } = pace;
  if (used === undefined || threshold === undefined || !averageTurnTokens) return undefined;
  threshold = actingLine(used, threshold, hardLimit);
  const start = Math.min(used, pace.turnStartCalibrated ?? used);
  const peak = Math.max(used, start + (pace.averagePeakRise ?? 0));
  return Math.max(0, Math.floor((threshold - peak) / averageTurnTokens));
}

/**
 * Whole calls of the current turn after this one before a request meets `threshold`, at what one step of a tool
 * loop adds; undefined outside a loop (the turn's first call) or without a step's pace. A coding agent's whole task
 * is one turn: it was told "turns left: not known yet" at every step of 90 (the forty-ninth outside trial).
 */
export function stepsLeftAt(
  used: number | undefined,
  threshold: number | undefined,
  pace: TurnPace,
  hardLimit?: number,
): number | undefined {
  const { averageStepTokens, turnCalls } = pace;
  if (used === undefined || threshold === undefined || !averageStepTokens || !turnCalls || turnCalls < 2)
    return undefined;
  return Math.max(0, Math.floor((actingLine(used, threshold, hardLimit) - used) / averageStepTokens));
}

/**
 * Where the guard reduces next: the threshold, or, for a request already past it and sent as it was (a masking that
 * waits for the call that needs it, a compaction held back), the hard limit. Told the threshold then, a model with the
 * budget line read "compaction near" on call after call with nothing compacted (review 39).
 */
function actingLine(used: number, threshold: number, hardLimit: number | undefined): number {
  return hardLimit !== undefined && used >= threshold ? Math.max(threshold, hardLimit) : threshold;
}

interface BudgetFigureInput {
  readonly usedTokens: number;
  readonly window: number;
  readonly threshold: number;
  /** The hard limit, where the guard acts once a request is past the threshold (`actingLine`). */
  readonly hardLimit?: number | undefined;
  readonly pace: TurnPace;
  /** Old tool output is masked, summarized or offloaded: the model may need to read it back. */
  readonly hidden: boolean;
  readonly recallToolName: string | undefined;
  readonly pinToolName?: string | undefined;
}

export function budgetFigures(input: BudgetFigureInput): BudgetFigures {
  const { usedTokens, window } = input;
  const threshold = actingLine(usedTokens, input.threshold, input.hardLimit);
  const turnsLeft = turnsLeftAt(usedTokens, threshold, input.pace);
  const stepsLeft = stepsLeftAt(usedTokens, threshold, input.pace);
  const compactionNear =
    (stepsLeft !== undefined && stepsLeft <= NEAR_STEPS) ||
    (turnsLeft !== undefined ? turnsLeft <= NEAR_TURNS : usedTokens >= threshold * NEAR_SHARE_WITHOUT_PACE);
  return {
    usedTokens,
    window,
    threshold,
    percentUsed: window > 0 ? Math.round((usedTokens / window) * 100) : 0,
    turnsLeft,
    ...(stepsLeft !== undefined && { stepsLeft }),
    compactionNear,
    recallTool: input.hidden ? input.recallToolName : undefined,
    ...(compactionNear && input.pinToolName !== undefined && { pinTool: input.pinToolName }),
  };
}

const figure = (value: number): string => value.toLocaleString('en-US');

/** The line a call ends with. */
export interface BudgetLine {
  readonly text: string;
  /** Heuristic tokens of the line's content. */
  readonly tokens: number;
  readonly figures: BudgetFigures;
}

/**
 * The line itself: terse, figures first, one instruction the model can act on. `statusTool`: the request declares
 * `context_status` (not where it may carry no function declaration of the guard's, adk/tools/own-tools-refusal.ts).
 */
export function budgetLineText(figures: BudgetFigures, statusTool = true): string {
  const pace = paceText(figures);
  const recall = figures.recallTool
    ? ` Masked or offloaded output: ${figures.recallTool}({event_id or artifact, pattern}) or lines:"120-180".`
    : '';
  return (
    `[context budget] ${figure(figures.usedTokens)} of ${figure(figures.window)} tokens (${figures.percentUsed}%); ` +
    `compaction at ${figure(figures.threshold)}, ${pace}${nearText(figures)}.` +
    `${recall}${statusTool ? ' context_status for details.' : ''}`
  );
}

/** The longest function name Gemini accepts: the budget line's reserve holds a tool name this long. */
const LONGEST_TOOL_NAME = 64;

/**
 * `, compaction near`, and where the request declares the pin tool, what to do about it (the fifty-fifth outside
 * trial: a coding agent's plan was gone at the loop's first compaction though it could have pinned it).
 */
function nearText({ compactionNear, pinTool }: BudgetFigures): string {
  if (!compactionNear) return '';
  // A name longer than any a provider accepts is not named: the line's reserve holds that long a name (review 48).
  if (pinTool === undefined || pinTool.length > LONGEST_TOOL_NAME) return ', compaction near';
  return `, compaction near: ${pinTool} what must outlive it`;
}

/** `~3 turns left`; inside a tool loop `~3 turns, ~14 steps left` (or `~14 steps left` before a turn's pace). */
function paceText({ turnsLeft, stepsLeft }: BudgetFigures): string {
  const turns = turnsLeft === undefined ? undefined : `~${turnsLeft} turn${turnsLeft === 1 ? '' : 's'}`;
  if (stepsLeft === undefined) return turns === undefined ? 'turns left: not known yet' : `${turns} left`;
  const steps = `~${stepsLeft} step${stepsLeft === 1 ? '' : 's'} left`;
  return turns === undefined ? steps : `${turns}, ${steps}`;
}

/** The longest line the figures can make (nine-digit figures, a 64-character tool name): what the estimate reserves. */
export function longestBudgetLine(): string {
  const large = 999_999_999;
  return budgetLineText({
    usedTokens: large,
    window: large,
    threshold: large,
    percentUsed: 100,
    turnsLeft: large,
    stepsLeft: large,
    compactionNear: true,
    recallTool: 'r'.repeat(LONGEST_TOOL_NAME),
    pinTool: 'p'.repeat(LONGEST_TOOL_NAME),
  });
}

/** The line as the request's last content: a user turn of its own, after everything ADK and the guard built. */
export function budgetLineContent(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}
