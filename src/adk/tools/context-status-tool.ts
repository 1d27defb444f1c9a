/**
 * `context_status`: the figures of the budget line (`budgetLine`) on demand, as JSON. Declared by
 * the guard on every request of an agent with `budgetLine` on, from the first call, so the tools
 * sent never change within a session (the provider's cached prefix). It answers the figures of the
 * line of the model call that called it (kept per invocation and agent in process memory, where
 * that call was guarded); else those of the agent's usage record in state, without the recall hint.
 */
import { FunctionTool, type Context, type LlmRequest } from '@google/adk';
import { budgetFigures, type BudgetFigures, type TurnPace } from '../../budget/budget-line.js';
import { stateKeysFor } from '../../state/keys.js';
import { decodeUsageRecord, type UsageRecord } from '../../usage/stored-usage.js';
import { countedLast } from '../../usage/calibration.js';
import { recordContextStatusCall } from '../../telemetry/budget-metrics.js';

export const CONTEXT_STATUS_TOOL_NAME = 'context_status';

/** The figures of the last budget line, by invocation and agent. */
const lastFigures = new WeakMap<object, Map<string, BudgetFigures>>();

/** Keeps the figures of this call's budget line for a `context_status` call the answer makes. */
export function rememberBudgetFigures(context: Context, figures: BudgetFigures): void {
  const byAgent = lastFigures.get(context.invocationContext) ?? new Map<string, BudgetFigures>();
  lastFigures.set(context.invocationContext, byAgent.set(context.agentName, figures));
}

/**
 * The remembered figures of this call under a window learned after its line was sent (a summary request
 * rejected as too long states the model's maximum): a `context_status` call its answer makes then reads
 * the window in force, not the one assumed.
 */
export function restateBudgetFigures(
  context: Context,
  budget: { readonly window: number; readonly threshold: number; readonly hardLimit?: number | undefined },
  pace: TurnPace,
): void {
  const figures = lastFigures.get(context.invocationContext)?.get(context.agentName);
  if (!figures) return;
  const { usedTokens, recallTool } = figures;
  const { window, threshold, hardLimit } = budget;
  const hidden = recallTool !== undefined;
  rememberBudgetFigures(
    context,
    budgetFigures({ usedTokens, window, threshold, hardLimit, pace, hidden, recallToolName: recallTool }),
  );
}

/**
 * The figures as the model reads them. The tool runs after the call that asked for it was answered: the
 * provider's count of that request is known then, beside the estimate the threshold is compared with.
 */
function answer(figures: BudgetFigures, counted: number | undefined): Record<string, unknown> {
  return {
    tokens_used: figures.usedTokens,
    ...(counted !== undefined && { provider_counted: counted }),
    window: figures.window,
    compaction_threshold: figures.threshold,
    percent_used: figures.percentUsed,
    turns_left: figures.turnsLeft ?? null,
    ...(figures.stepsLeft !== undefined && { steps_left_in_this_turn: figures.stepsLeft }),
    compaction_near: figures.compactionNear,
    ...(figures.recallTool && {
      read_back: `${figures.recallTool} with event_id or artifact, and pattern (matching lines) or lines ("120-180")`,
    }),
  };
}

/** Figures from the usage record the agent's last guarded call stored. */
function storedFigures(usage: UsageRecord): BudgetFigures | undefined {
  const { lastCalibrated, window, threshold } = usage;
  if (lastCalibrated === undefined || window === undefined || threshold === undefined) return undefined;
  return budgetFigures({
    usedTokens: lastCalibrated,
    window,
    threshold,
    hardLimit: usage.hardLimit,
    pace: usage,
    hidden: false,
    recallToolName: undefined,
  });
}

function contextStatusTool(): FunctionTool {
  return new FunctionTool({
    name: CONTEXT_STATUS_TOOL_NAME,
    description:
      'Your context budget now: tokens used of the window, the compaction threshold, turns left at this pace, and how to read back masked output.',
    execute: (_input: unknown, context?: Context) => {
      if (!context) return { error: 'context_status needs a tool context.' };
      recordContextStatusCall(context.agentName);
      const usage = decodeUsageRecord(context.state.get<unknown>(stateKeysFor(context.agentName).usage));
      const figures = lastFigures.get(context.invocationContext)?.get(context.agentName) ?? storedFigures(usage);
      return figures ? answer(figures, countedLast(usage)) : { error: 'No guarded model call of this agent yet.' };
    },
  });
}

export class ContextStatusDeclarer {
  /** One tool for every agent: it reads each call's own context. */
  private readonly tool: FunctionTool = contextStatusTool();

  /** Adds the tool to `request` unless the agent has a tool of that name (its own is left alone). */
  async declare(context: Context, request: LlmRequest): Promise<void> {
    request.toolsDict ??= {};
    if (request.toolsDict[this.tool.name]) return;
    await this.tool.processLlmRequest({ toolContext: context, llmRequest: request });
  }
}
