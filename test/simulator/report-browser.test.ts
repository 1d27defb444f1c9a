/**
 * The HTML report is loaded in a real headless browser (Debian's `chromium`)
 * and its charts must be laid out: the page's own script counts the charts
 * whose SVG has a box and whose series line has a length, and we read the
 * count from the DOM the browser dumps. Offline: the page loads nothing.
 *
 * Without chromium the test is skipped on a developer machine and FAILS in CI
 * (CI=true): install it with `apt-get install -y chromium`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../simulator/report-html.js';
import { runAll } from '../../simulator/run-all.js';
import { ALL_SCENARIOS } from '../../simulator/scenarios/index.js';
import { STRATEGIES } from '../../simulator/strategies.js';

const CHROMIUM = process.env['CHROMIUM_BIN'] ?? 'chromium';
const inCi = process.env['CI'] === 'true';

function chromiumAvailable(): boolean {
  const probe = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return probe.status === 0;
}

const available = chromiumAvailable();

function dumpDom(file: string, profile: string): string {
  const run = spawnSync(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      '--dump-dom',
      pathToFileURL(file).href,
    ],
    { encoding: 'utf8', timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`chromium exited with ${run.status}: ${run.stderr.slice(-2_000)}`);
  return run.stdout;
}

describe('the HTML report in a headless browser', () => {
  // In CI the test always runs, and fails when chromium is missing; elsewhere it needs chromium installed.
  it.runIf(available || inCi)(
    'should render one chart per scenario and strategy, each laid out with its series line',
    async () => {
      if (!available)
        expect.fail(`'${CHROMIUM}' is not installed; CI needs it: apt-get update && apt-get install -y chromium`);
      const scenarios = ALL_SCENARIOS.filter(
        (spec) => spec.name === '8k_SmallToolCalls' || spec.name === '8k_ToolBurst',
      );
      const { results } = await runAll({ scenarios, strategies: STRATEGIES, groundTruth: 'ratio', jobs: 1 });
      const html = renderReport(results, {
        generatedAt: 'test',
        command: 'vitest',
        groundTruth: results[0]?.groundTruth ?? '',
        durationMs: 0,
      });
      expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']https?:/i);

      const dir = mkdtempSync(join(tmpdir(), 'sim-report-'));
      try {
        const file = join(dir, 'simulation.html');
        writeFileSync(file, html);
        const dom = dumpDom(file, join(dir, 'profile'));
        const body = /<body([^>]*)>/.exec(dom)?.[1] ?? '';
        const total = Number(/data-charts-total="(\d+)"/.exec(body)?.[1]);
        const rendered = Number(/data-charts-rendered="(\d+)"/.exec(body)?.[1]);
        const length = Number(/data-series-length="(\d+)"/.exec(body)?.[1]);
        expect(total).toBe(scenarios.length * STRATEGIES.length);
        expect(rendered).toBe(total);
        expect(length).toBeGreaterThan(0);
        expect(dom.match(/<polyline class="series"/g)?.length).toBe(total);
        // The window and threshold lines and at least one compaction marker made it into the page.
        expect(dom.match(/<line class="window"/g)?.length).toBe(total);
        expect(dom).toMatch(/<path class="compaction"/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
