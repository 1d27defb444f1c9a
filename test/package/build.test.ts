/**
 * The published shape: ESM and CommonJS builds with type declarations, and the
 * `.`, `./testing` and `./internal` entry points resolved through package.json `exports`
 * (a package can require itself by name), as a user's `import` and `require` would;
 * and the tarball `npm pack` makes: a license, and source maps a debugger can follow.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const node = (args: string[]): string => execFileSync(process.execPath, args, { encoding: 'utf8', cwd: process.cwd() });

interface SourceMap {
  sources: string[];
  sourcesContent?: Array<string | null>;
}

/** The paths `npm pack` would put in the tarball (no tarball is written). */
function packedFiles(): string[] {
  const npmCli = process.env['npm_execpath'];
  const out =
    npmCli && npmCli.endsWith('.js')
      ? execFileSync(process.execPath, [npmCli, 'pack', '--dry-run', '--json', '--ignore-scripts'], {
          encoding: 'utf8',
        })
      : execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' });
  return packEntry(JSON.parse(out)).files.map((file) => file.path);
}

interface PackEntry {
  files: Array<{ path: string }>;
}

/**
 * The one package's entry in `npm pack --json`: npm 11 and earlier print an array of entries,
 * npm 12 an object keyed by package name.
 */
function packEntry(parsed: unknown): PackEntry {
  const entries: unknown[] = Array.isArray(parsed)
    ? parsed
    : typeof parsed === 'object' && parsed !== null
      ? Object.values(parsed)
      : [];
  const [entry] = entries as Array<Partial<PackEntry> | undefined>;
  if (entries.length !== 1 || !Array.isArray(entry?.files)) {
    throw new Error(
      `npm pack --json printed neither [entry] nor { name: entry }: ${JSON.stringify(parsed).slice(0, 200)}`,
    );
  }
  return entry as PackEntry;
}

describe('package build', () => {
  beforeAll(() => {
    node(['scripts/build.mjs']);
  }, 300_000);

  it('should build ESM, CommonJS and declarations that load by package name', () => {
    expect(existsSync('dist/types/index.d.ts')).toBe(true);
    expect(existsSync('dist/types/testing/index.d.ts')).toBe(true);
    expect(existsSync('dist/types/internal.d.ts')).toBe(true);
    const required = node([
      '-e',
      "const g = require('adk-context-guard'); const t = require('adk-context-guard/testing'); const i = require('adk-context-guard/internal'); console.log(typeof g.ContextGuard, typeof t.ScriptedLlm, typeof i.stateKeysFor, new g.ContextGuard({ contextWindow: 8000 }).name)",
    ]);
    expect(required.trim()).toBe('function function function context_guard');
    const imported = node([
      '--input-type=module',
      '-e',
      "const g = await import('adk-context-guard'); const t = await import('adk-context-guard/testing'); const i = await import('adk-context-guard/internal'); console.log(typeof g.ContextGuard, typeof t.ScriptedLlm, i.isContextGuard(new g.ContextGuard()))",
    ]);
    expect(imported.trim()).toBe('function function true');
  });

  it('should pack the license and source maps whose sources ship with them', () => {
    const files = packedFiles();
    expect(files).toContain('LICENSE');
    expect(readFileSync('LICENSE', 'utf8')).toContain(
      'Apache License\n                           Version 2.0, January 2004',
    );
    const maps = files.filter((file) => file.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    const unreachable: string[] = [];
    for (const mapPath of maps) {
      const map = JSON.parse(readFileSync(mapPath, 'utf8')) as SourceMap;
      map.sources.forEach((source, index) => {
        const inlined = typeof map.sourcesContent?.[index] === 'string';
        const shipped = files.includes(normalize(join(dirname(mapPath), source)));
        if (!inlined && !shipped) unreachable.push(`${mapPath} -> ${source}`);
      });
    }
    expect(unreachable).toEqual([]);
  });
});
