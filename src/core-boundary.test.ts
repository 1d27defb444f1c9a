import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The pure core: tested without a Runner, so it must not depend on ADK at run time. */
const SOURCE = fileURLToPath(new URL('.', import.meta.url));
const CORE_DIRECTORIES = [
  'config',
  'validation',
  'policy',
  'text',
  'content',
  'estimate',
  'budget',
  'trigger',
  'split',
  'masking',
  'summary',
  'shrink',
  'preparation',
  'usage',
  'pipeline',
  'state',
  'truncation',
  'memory',
  'recall',
  'records',
  'status',
  'telemetry',
  'cost',
  'offload',
  'logging',
  'collections',
  'interactions',
];
const CORE_FILES = ['options.ts', 'errors.ts'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const coreFiles = [
  ...CORE_DIRECTORIES.flatMap((directory) => sourceFiles(join(SOURCE, directory))),
  ...CORE_FILES.map((file) => join(SOURCE, file)),
];

/** Import and export-from statements of a module, one per entry, whitespace collapsed. */
function importStatements(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'[^']+';/gms)].map((match) =>
    match[0].replace(/\s+/g, ' '),
  );
}

describe('the pure core', () => {
  describe('dependencies', () => {
    it('should list every folder but the ADK shell, the AGENTS.md plugin and the test kit', () => {
      const folders = readdirSync(SOURCE, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
      expect(folders.filter((name) => !CORE_DIRECTORIES.includes(name)).sort()).toEqual([
        'adk',
        'instructions',
        'testing',
      ]);
    });

    it('should find the core modules to check', () => {
      expect(coreFiles.length).toBeGreaterThan(20);
    });

    it('should never import @google/adk', () => {
      const offenders = coreFiles.filter((path) =>
        importStatements(path).some((statement) => statement.includes("'@google/adk")),
      );
      expect(offenders.map((path) => relative(SOURCE, path))).toEqual([]);
    });

    it('should import @google/genai for types only', () => {
      const offenders = coreFiles.filter((path) =>
        importStatements(path).some(
          (statement) =>
            statement.includes("'@google/genai'") &&
            !statement.startsWith('import type ') &&
            !statement.startsWith('export type '),
        ),
      );
      expect(offenders.map((path) => relative(SOURCE, path))).toEqual([]);
    });
  });
});
