/**
 * The published shape: ESM and CommonJS builds with type declarations, and the
 * `.` and `./testing` entry points resolved through package.json `exports`
 * (a package can require itself by name), as a user's `import` and `require` would.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const node = (args: string[]): string => execFileSync(process.execPath, args, { encoding: 'utf8', cwd: process.cwd() });

describe('package build', () => {
  it('should build ESM, CommonJS and declarations that load by package name', () => {
    node(['scripts/build.mjs']);
    expect(existsSync('dist/types/index.d.ts')).toBe(true);
    expect(existsSync('dist/types/testing/index.d.ts')).toBe(true);
    const required = node(['-e', "const g = require('adk-context-guard'); const t = require('adk-context-guard/testing'); console.log(typeof g.ContextGuard, typeof t.ScriptedLlm, new g.ContextGuard({ contextWindow: 8000 }).name)"]);
    expect(required.trim()).toBe('function function context_guard');
    const imported = node(['--input-type=module', '-e', "const g = await import('adk-context-guard'); const t = await import('adk-context-guard/testing'); console.log(typeof g.ContextGuard, typeof t.ScriptedLlm, g.isContextGuard(new g.ContextGuard()))"]);
    expect(imported.trim()).toBe('function function true');
  }, 180_000);
});
