/**
 * `npm run simulate` end to end: the CLI on a worker pool, its summary table,
 * the JSON results and the HTML report, for one small scenario.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STRATEGIES } from '../../simulator/strategies.js';

describe('simulator CLI', () => {
  it('should run a filtered scenario on two workers and write the table, the JSON and the report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
    try {
      const json = join(dir, 'results.json');
      const report = join(dir, 'simulation.html');
      const run = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'simulator/cli.ts',
          '--filter',
          '^8k_SmallToolCalls$',
          '--jobs',
          '2',
          '--json',
          json,
          '--report',
          report,
        ],
        {
          encoding: 'utf8',
          timeout: 170_000,
        },
      );
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(
        /scenario\s+strategy\s+calls\s+overflows\s+compactions\s+maskings\s+summarizer\s+waited\s+peak\s+mean\s+billed tokens\s+cached\s+cost \$\s+result/,
      );
      expect(run.stdout).toMatch(
        /Cost of guard-defaults against adk-token-based, on the 1 scenarios both finish without an overflow:\n {2}total \d+\.\d\dx, median \d+\.\d\dx; median by window: 8,000: \d+\.\d\dx \(1\)/,
      );
      const parsed = JSON.parse(readFileSync(json, 'utf8')) as {
        scenarios: Array<Record<string, unknown>>;
        costComparison?: { scenarios: number; medianRatio: number; floorMedianRatio: number };
      };
      expect(parsed.costComparison?.scenarios).toBe(1);
      // The floor is what no strategy goes below: under the guard's own bill.
      expect(parsed.costComparison?.floorMedianRatio).toBeLessThan(parsed.costComparison?.medianRatio ?? 0);
      expect(parsed.scenarios.map((result) => result['strategy'])).toEqual(STRATEGIES.map((strategy) => strategy.name));
      for (const result of parsed.scenarios) {
        expect(result).toMatchObject({ name: '8k_SmallToolCalls', window: 8_000 });
        expect(Array.isArray(result['violations'])).toBe(true);
        expect(typeof result['passed']).toBe('boolean');
        expect(result['costFloorUsd']).toBeLessThan(result['costUsd'] as number);
      }
      expect(parsed.scenarios.find((result) => result['strategy'] === 'none')?.['overflows']).toBeGreaterThan(0);
      expect(existsSync(report)).toBe(true);
      expect(readFileSync(report, 'utf8')).toContain('<svg');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('should refuse an unknown strategy with exit code 2', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', '--strategy', 'nope'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown strategy 'nope'/);
  }, 60_000);

  it('should refuse two held-out sets at once with exit code 2 (review 27: the second was replayed silently)', () => {
    for (const pair of [
      ['--held-out', '--held-out-2'],
      ['--held-out-2', '--held-out-3'],
    ]) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', ...pair], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--held-out, --held-out-2 and --held-out-3 replay one set each/);
    }
  }, 60_000);

  it('should refuse guard options the ContextGuard constructor refuses, naming the option, with exit code 2', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'simulator/cli.ts', '--guard-options', '{"maskStaleOutputTokns":1}'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /'maskStaleOutputTokns' is not a ContextGuard option \(did you mean 'maskStaleOutputTokens'\?\)/,
    );
    const notJson = spawnSync(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', '--guard-options', '[1]'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toMatch(/--guard-options must be a JSON object/);
    // Another strategy under a guard strategy's name would mislabel every row.
    const strategy = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'simulator/cli.ts', '--guard-options', '{"strategy":"sliding-window"}'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(strategy.status).toBe(2);
    expect(strategy.stderr).toMatch(/--guard-options cannot set strategy/);
    const twice = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'simulator/cli.ts', '--guard-options', '{"bufferRatio":0.3}', '--guard-options', '{}'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(twice.status).toBe(2);
    expect(twice.stderr).toMatch(/--guard-options was given 2 times/);
  }, 60_000);

  it('should run the guard strategies with --guard-options over their own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-options-'));
    // Each run's report goes to the temporary folder: the default, reports/simulation.html, is the user's.
    const run = (extra: string[]) =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'simulator/cli.ts',
          '--filter',
          '^8k_SmallToolCalls$',
          '--jobs',
          '1',
          '--report',
          join(dir, 'simulation.html'),
          ...extra,
        ],
        { encoding: 'utf8', timeout: 170_000 },
      );
    const row = (stdout: string, strategy: string): string[] =>
      (stdout.split('\n').find((line) => line.startsWith('8k_SmallToolCalls') && line.includes(` ${strategy} `)) ?? '')
        .trim()
        .split(/\s+/);
    const plain = run([]);
    const json = join(dir, 'results.json');
    const off = run(['--guard-options', '{"enabled":false}', '--json', json]);
    // The JSON says which options the run used, so a tuned run is not read as the defaults.
    expect((JSON.parse(readFileSync(json, 'utf8')) as { guardOptions?: unknown }).guardOptions).toEqual({
      enabled: false,
    });
    rmSync(dir, { recursive: true, force: true });
    expect(plain.status).toBe(0);
    expect(row(plain.stdout, 'guard-defaults').at(-1)).toBe('pass');
    // A disabled guard sends what ADK built: the no-compaction baseline's calls and overflows, and a failed run.
    expect(off.status).toBe(1);
    expect(off.stdout).toMatch(/^Simulating .*, guard options: \{"enabled":false\}$/m);
    const disabled = row(off.stdout, 'guard-defaults');
    expect(disabled.slice(2, 4)).toEqual(row(off.stdout, 'none').slice(2, 4));
    expect(Number(disabled[3])).toBeGreaterThan(0);
  }, 360_000);
});
