/**
 * Issue 29: reading back and not fetching twice, as scenarios (simulator/tool-work.ts has the
 * tools and the model). Run under the baselines and the guard on its defaults: the guard's
 * truncation cuts the 2 MB log, and its offloading keeps it whole for the recall by pattern.
 */
import type { ScenarioSpec } from '../scenario-types.js';
import { workTurns } from '../tool-work.js';

const K = 1_000;
const STRATEGIES = ['none', 'adk-token-based', 'guard-defaults'];
const READ_ONLY_TWIN = '16k_RepeatedReadOnlyCall_NotDeclared';
const BUDGET_LINE_TWIN = '16k_BudgetLine_Off';

export const TOOL_WORK: readonly ScenarioSpec[] = [
  {
    name: '128k_RecallSearch_OffloadedLog',
    group: 'extra',
    claim:
      'A 2.1 MB log is cut and offloaded; asked for its one error two turns later, the model finds it with one recall call by pattern (the line, numbered, in a bounded answer) and answers with the exact volume.',
    window: 128 * K,
    turns: workTurns('log-search'),
    ratio: 1.0,
    usage: 'always',
    turnPattern: { tools: [] },
    work: { kind: 'log-search' },
    strategies: STRATEGIES,
    expect: {
      toolWork: {
        answerContains: 'vol-7f3a',
        lostAtQuestion: true,
        recallCalls: 1,
        maxRecallResultChars: 4_000,
        toolRuns: { fetch_service_log: 1 },
        recallLineReads: 1,
      },
    },
  },
  {
    name: '16k_RepeatedReadOnlyCall_Masked',
    group: 'extra',
    claim:
      'A read-only config read is masked by later log work; asked for one of its settings, the model calls it again with the same arguments, and the guard answers from the stored result with its age: the tool runs once.',
    window: 16 * K,
    turns: workTurns('repeat-read'),
    ratio: 2.0,
    usage: 'always',
    turnPattern: { tools: [] },
    work: { kind: 'repeat-read', offTwin: READ_ONLY_TWIN },
    guard: { tools: { read_config: { readOnly: true } } },
    strategies: STRATEGIES,
    expect: {
      toolWork: {
        answerContains: '45s',
        lostAtQuestion: true,
        toolCalls: { read_config: 2 },
        toolRuns: { read_config: 1 },
        storedAnswers: 1,
      },
    },
  },
  {
    name: READ_ONLY_TWIN,
    group: 'extra',
    claim:
      'The same work with read_config not declared read-only (the feature off): the repeated call runs the tool again, so the two runs show what a stored answer saves.',
    window: 16 * K,
    turns: workTurns('repeat-read'),
    ratio: 2.0,
    usage: 'always',
    turnPattern: { tools: [] },
    work: { kind: 'repeat-read' },
    strategies: STRATEGIES,
    expect: {
      toolWork: {
        answerContains: '45s',
        lostAtQuestion: true,
        toolCalls: { read_config: 2 },
        toolRuns: { read_config: 2 },
        storedAnswers: 0,
      },
    },
  },
  {
    name: '16k_BudgetLine_ToolWork',
    group: 'extra',
    claim:
      'With budgetLine on, 8 turns of two 6k log fetches on a 16k window: every agent request ends with the budget line, the model quotes the percentage each line showed, the line is in no stored event, state or summary request, status() counts one line per call, while the guard masks and compacts without an overflow.',
    window: 16 * K,
    turns: workTurns('budget-line'),
    ratio: 2.0,
    usage: 'always',
    turnPattern: { tools: [] },
    work: { kind: 'budget-line', offTwin: BUDGET_LINE_TWIN },
    guard: { budgetLine: true },
    strategies: ['guard-defaults'],
    expect: { toolWork: { answerContains: 'Budget line seen:', budgetLine: true } },
  },
  {
    name: BUDGET_LINE_TWIN,
    group: 'extra',
    claim:
      'The same work with budgetLine off (the default): no request carries a line, so the two runs show what the line costs and whether it changes the compactions.',
    window: 16 * K,
    turns: workTurns('budget-line'),
    ratio: 2.0,
    usage: 'always',
    turnPattern: { tools: [] },
    work: { kind: 'budget-line' },
    strategies: ['guard-defaults'],
    expect: { toolWork: { answerContains: 'No budget line in my request.', budgetLine: false } },
  },
];
