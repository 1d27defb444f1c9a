/**
 * Metrics of the budget the model sees (`budgetLine`; same SDK path as guard-metrics.ts):
 * - `gen_ai.context_guard.budget_lines` (counter: requests sent with the budget line at their end);
 * - `gen_ai.context_guard.budget_line.tokens` (counter: estimated tokens of those lines);
 * - `gen_ai.context_guard.context_status.calls` (counter: calls of the `context_status` tool).
 */
import { lazyInstruments } from './instruments.js';

const meters = lazyInstruments({
  lineTokens: {
    kind: 'counter',
    name: 'gen_ai.context_guard.budget_line.tokens',
    unit: '{token}',
    description: 'Estimated tokens of the budget lines sent at the end of requests',
  },
  lines: {
    kind: 'counter',
    name: 'gen_ai.context_guard.budget_lines',
    description: 'Requests sent with the budget line at their end',
  },
  statusCalls: {
    kind: 'counter',
    name: 'gen_ai.context_guard.context_status.calls',
    description: 'Calls of the context_status tool',
  },
} as const);

/** A request was sent with a budget line of `tokens` estimated tokens. */
export function recordBudgetLine(agentName: string, tokens: number): void {
  meters().lines.add(1, { 'gen_ai.agent.name': agentName });
  meters().lineTokens.add(tokens, { 'gen_ai.agent.name': agentName });
}

/** The model called the `context_status` tool. */
export function recordContextStatusCall(agentName: string): void {
  meters().statusCalls.add(1, { 'gen_ai.agent.name': agentName });
}
