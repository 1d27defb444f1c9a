/**
 * The tool-work scenarios (issue 29) under the guard on its defaults, on the real Runner: each
 * passes its own checks (the value recovered with one recall call by pattern; a repeated read-only
 * call answered from its stored result). The same checks fail on a run where the feature is off,
 * so they can fail.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../simulator/run-scenario.js';
import { TOOL_WORK } from '../../simulator/scenarios/tool-work.js';
import { STRATEGIES } from '../../simulator/strategies.js';
import { toolWorkSavedLines } from '../../simulator/tool-work-report.js';

const guardDefaults = STRATEGIES.find((strategy) => strategy.name === 'guard-defaults')!;
const spec = (name: string) => TOOL_WORK.find((candidate) => candidate.name === name)!;

describe('tool-work scenarios under guard-defaults', () => {
  for (const scenario of TOOL_WORK) {
    it(`${scenario.name} · guard-defaults`, async () => {
      const result = await runScenario(scenario, guardDefaults);
      expect(result.violations, `${scenario.claim}\n${result.violations.join('\n')}`).toEqual([]);
      expect(result.passed).toBe(true);
    });
  }

  it('should fail the stored-answer claim on the run with read_config not declared read-only, and report the run saved', async () => {
    const masked = spec('16k_RepeatedReadOnlyCall_Masked');
    const twin = spec('16k_RepeatedReadOnlyCall_NotDeclared');
    // The twin's run held to the declared scenario's claims: the tool ran twice, nothing came from the store.
    const off = await runScenario({ ...twin, expect: masked.expect }, guardDefaults);
    expect(off.violations).toEqual(
      expect.arrayContaining([
        'expected 1 real run(s) of read_config, got 2',
        expect.stringMatching(/^expected 1 call\(s\) answered from the stored result/) as string,
      ]),
    );
    const on = await runScenario(masked, guardDefaults);
    const lines = toolWorkSavedLines([on, { ...off, name: twin.name }]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/saved 1 tool run\(s\)/);
  });

  it('should fail the recall claims when the log is not offloaded (no artifact handle to search)', async () => {
    const scenario = spec('128k_RecallSearch_OffloadedLog');
    // Truncation off: the guard shrinks the request to fit, and no cut result carries a handle.
    const strategy = {
      ...guardDefaults,
      guardOptions: { ...guardDefaults.guardOptions, toolOutputTruncation: false as const },
    };
    const result = await runScenario(scenario, strategy);
    expect(result.violations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^expected the answer to contain vol-7f3a/) as string,
        'expected 1 recall call(s), got 0',
      ]),
    );
  });
});
