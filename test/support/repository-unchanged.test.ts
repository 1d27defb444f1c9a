/**
 * The check that a test run writes nothing into the repository (test/support/repository-unchanged.ts),
 * run for real: Vitest itself, in a temporary folder standing for the repository, with that global
 * setup and one test that writes. A write into the folder fails the run; a write to the system's
 * temporary folder does not, and neither does a file that was there, uncommitted, before the run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changedFiles, snapshotTree } from './repository-unchanged.js';

const vitestCli = join(createRequire(import.meta.url).resolve('vitest/package.json'), '..', 'vitest.mjs');
const setupFile = resolve('test/support/repository-unchanged.ts');
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'repo-unchanged-'));
  folders.push(folder);
  return folder;
}

/** Runs Vitest in a fresh folder whose one test runs `body`; returns its exit code and output. */
function runIn(body: string, before: Record<string, string> = {}) {
  const repo = tempFolder();
  for (const [path, text] of Object.entries(before)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  writeFileSync(
    join(repo, 'vitest.config.mjs'),
    `export default { test: { globals: true, include: ['probe.test.mjs'], globalSetup: [${JSON.stringify(setupFile)}] } };\n`,
  );
  writeFileSync(
    join(repo, 'probe.test.mjs'),
    `import { writeFileSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\n` +
      `test('probe', () => { ${body} });\n`,
  );
  const run = spawnSync(process.execPath, [vitestCli, 'run', '--config', 'vitest.config.mjs'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { repo, status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the repository-unchanged check', () => {
  it('should fail a run whose test writes into the repository, naming the file', () => {
    const run = runIn(`writeFileSync('reports/simulation.html', '0 of 3 runs passed');`, {
      'reports/simulation.html': 'the report npm run simulate wrote',
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain('the test run changed files in the repository');
    expect(run.output).toContain('~ reports/simulation.html');
  }, 60_000);

  it('should pass a run that writes only to a temporary folder, beside uncommitted work', () => {
    const scratch = tempFolder();
    const run = runIn(`writeFileSync(join(${JSON.stringify(scratch)}, 'out.html'), 'x');`, {
      'src/work-in-progress.ts': 'export const notCommitted = 1;',
      'dist/index.js': 'built',
    });
    expect(run.output).not.toContain('changed files in the repository');
    expect(run.status).toBe(0);
    expect(readFileSync(join(scratch, 'out.html'), 'utf8')).toBe('x');
  }, 60_000);

  it('should tell added, changed and removed files apart, and leave dist/ and node_modules/ out', () => {
    const repo = tempFolder();
    for (const path of ['kept.txt', 'changed.txt', 'removed.txt', 'dist/a.js', 'node_modules/x/index.js']) {
      mkdirSync(join(repo, path, '..'), { recursive: true });
      writeFileSync(join(repo, path), 'before');
    }
    const before = snapshotTree(repo);
    writeFileSync(join(repo, 'changed.txt'), 'after, longer');
    rmSync(join(repo, 'removed.txt'));
    writeFileSync(join(repo, 'added.txt'), 'new');
    writeFileSync(join(repo, 'dist/a.js'), 'rebuilt by the build test');
    writeFileSync(join(repo, 'node_modules/x/index.js'), 'reinstalled');
    expect(changedFiles(before, snapshotTree(repo))).toEqual(['+ added.txt', '~ changed.txt', '- removed.txt']);
  });
});
