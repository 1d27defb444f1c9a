/**
 * The budget line in the simulator (issue 29): `16k_BudgetLine_ToolWork` and its twin with the line
 * off, on the real Runner under the guard's defaults. With the line on, every agent request ends
 * with it and the model quotes the percentage it was shown; the report compares the pair. The same
 * claims fail on the scenario with the option removed, so they can fail.
 */
import { describe, expect, it } from 'vitest';
import { budgetLineComparisons } from '../../simulator/budget-line-report.js';
import { runScenario } from '../../simulator/run-scenario.js';
import { TOOL_WORK } from '../../simulator/scenarios/tool-work.js';
import { STRATEGIES } from '../../simulator/strategies.js';
import { toolWorkSavedLines } from '../../simulator/tool-work-report.js';

const guardDefaults = STRATEGIES.find((strategy) => strategy.name === 'guard-defaults')!;
const spec = (name: string) => TOOL_WORK.find((candidate) => candidate.name === name)!;

describe('the budget line in the simulator', () => {
  it('should send the line on every agent call, have the model quote it, and report it against the twin', async () => {
    const on = await runScenario(spec('16k_BudgetLine_ToolWork'), guardDefaults);
    const off = await runScenario(spec('16k_BudgetLine_Off'), guardDefaults);
    expect(on.violations).toEqual([]);
    expect(off.violations).toEqual([]);
    const facts = on.toolWork?.budgetLine;
    // The model's stored answers carry the percentages it read in the requests it was sent.
    expect(facts?.percentsQuoted).toHaveLength(on.modelCalls);
    expect(facts?.percentsQuoted).toEqual(facts?.percentsShown);
    expect(facts?.summaryRequests).toBeGreaterThan(0);
    expect(off.toolWork?.budgetLine?.percentsQuoted).toEqual([]);

    const rows = budgetLineComparisons([on, off]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      linesSent: on.modelCalls,
      quotedEveryLine: true,
      billedPromptTokens: on.billedPromptTokens,
      twinBilledPromptTokens: off.billedPromptTokens,
      twinCostUsd: off.costUsd,
    });
    expect(rows[0]?.tokensPerLine).toBeGreaterThan(0);
    expect(toolWorkSavedLines([on, off])).toEqual([
      expect.stringMatching(new RegExp(`^16k_BudgetLine_ToolWork · guard-defaults: ${on.modelCalls} budget lines`)),
    ]);
  });

  it('should fail the claims when the option is removed', async () => {
    const scenario = spec('16k_BudgetLine_ToolWork');
    const result = await runScenario({ ...scenario, guard: {} }, guardDefaults);
    expect(result.violations).toEqual(
      expect.arrayContaining([
        `expected every agent request to end with the budget line; 0 of ${result.modelCalls} did`,
        expect.stringMatching(/^expected the model to quote the percentage of each line it was sent/) as string,
        `expected status().budgetLines to equal the ${result.modelCalls} agent call(s), got 0`,
        expect.stringMatching(/^expected the answer to contain Budget line seen:/) as string,
      ]),
    );
    expect(budgetLineComparisons([result])).toEqual([]);
  });
});
