/**
 * Issue 29: reading back and not fetching twice, as scenarios (simulator/tool-work.ts has the
 * tools and the model). Run under the baselines and the guard on its defaults: the guard's
 * truncation cuts the 2 MB log, and its offloading keeps it whole for the recall by pattern.
 */
import type { ScenarioSpec, ToolWorkKind } from '../scenario-types.js';
import { workTurns } from '../tool-work.js';

const K = 1_000;
const STRATEGIES = ['none', 'adk-token-based', 'guard-defaults'];

type WorkFields = Omit<ScenarioSpec, 'group' | 'turns' | 'usage' | 'turnPattern' | 'work'>;

/** A tool-work scenario: its turns, tools and model come from its kind of work (simulator/tool-work.ts). */
function workScenario(kind: ToolWorkKind, fields: WorkFields, offTwin?: string): ScenarioSpec {
  return {
    ...fields,
    group: 'extra',
    turns: workTurns(kind),
    usage: 'always',
    turnPattern: { tools: [] },
    work: offTwin === undefined ? { kind } : { kind, offTwin },
  };
}
const READ_ONLY_TWIN = '16k_RepeatedReadOnlyCall_NotDeclared';
/** What the repeated read and its feature-off twin share: the work, and the answer the model must give. */
const REPEAT_READ = { window: 16 * K, ratio: 2.0, strategies: STRATEGIES };
const REPEAT_READ_ANSWER = { answerContains: '45s', lostAtQuestion: true, toolCalls: { read_config: 2 } };
const BUDGET_LINE_TWIN = '16k_BudgetLine_Off';

export const TOOL_WORK: readonly ScenarioSpec[] = [
  workScenario('log-search', {
    name: '128k_RecallSearch_OffloadedLog',
    claim:
      'A 2.1 MB log is cut and offloaded; asked for its one error two turns later, the model finds it with one recall call by pattern (the line, numbered, in a bounded answer) and answers with the exact volume.',
    window: 128 * K,
    ratio: 1.0,
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
  }),
  workScenario(
    'repeat-read',
    {
      ...REPEAT_READ,
      name: '16k_RepeatedReadOnlyCall_Masked',
      claim:
        'A config read declared to reuse its result is masked by later log work (a read-only tool); asked for one of its settings, the model calls it again with the same arguments, and the guard answers from the stored result with its age: the tool runs once.',
      guard: { tools: { read_config: { readOnly: true, reuseResult: true }, fetch_logs: { readOnly: true } } },
      expect: { toolWork: { ...REPEAT_READ_ANSWER, toolRuns: { read_config: 1 }, storedAnswers: 1 } },
    },
    READ_ONLY_TWIN,
  ),
  workScenario('repeat-read', {
    ...REPEAT_READ,
    name: READ_ONLY_TWIN,
    claim:
      'The same work with read_config not declared to reuse its result (the feature off): the repeated call runs the tool again, so the two runs show what a stored answer saves.',
    expect: { toolWork: { ...REPEAT_READ_ANSWER, toolRuns: { read_config: 2 }, storedAnswers: 0 } },
  }),
  workScenario(
    'budget-line',
    {
      name: '16k_BudgetLine_ToolWork',
      claim:
        'With budgetLine on, 8 turns of two 6k log fetches on a 16k window: every agent request ends with the budget line, the model quotes the percentage each line showed, the line is in no stored event, state or summary request, status() counts one line per call, while the guard masks and compacts without an overflow.',
      window: 16 * K,
      ratio: 2.0,
      guard: { budgetLine: true },
      strategies: ['guard-defaults'],
      expect: { toolWork: { answerContains: 'Budget line seen:', budgetLine: true } },
    },
    BUDGET_LINE_TWIN,
  ),
  workScenario('budget-line', {
    name: BUDGET_LINE_TWIN,
    claim:
      'The same work with budgetLine off (the default): no request carries a line, so the two runs show what the line costs and whether it changes the compactions.',
    window: 16 * K,
    ratio: 2.0,
    strategies: ['guard-defaults'],
    expect: { toolWork: { answerContains: 'No budget line in my request.', budgetLine: false } },
  }),
];
