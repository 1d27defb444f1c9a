import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Rooms that stay small enough to read: no src file (tests aside) over 300 lines, the plugin class
 * file under 250. A data table over the limit is split by group, not exempted.
 */
const SOURCE = fileURLToPath(new URL('.', import.meta.url));
const MAX_LINES = 300;
const MAX_PLUGIN_LINES = 250;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const lines = new Map(
  sourceFiles(SOURCE).map((path) => [relative(SOURCE, path), readFileSync(path, 'utf8').split('\n').length - 1]),
);

describe('file sizes', () => {
  it(`should keep every src file at ${MAX_LINES} lines or fewer`, () => {
    const over = [...lines].filter(([, count]) => count > MAX_LINES);
    expect(over.map(([file, count]) => `${file} (${count} lines)`)).toEqual([]);
  });

  it(`should keep the plugin class file under ${MAX_PLUGIN_LINES} lines`, () => {
    expect(lines.get('context-guard.ts')).toBeLessThan(MAX_PLUGIN_LINES);
  });
});
