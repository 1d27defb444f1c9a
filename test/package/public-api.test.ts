/**
 * The package root is a promise: a short list of names, each one documented for users.
 * The names are read from the compiled module's own export table (values and types alike),
 * so a new `export` in src/index.ts is counted whichever way it is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_ROOT_NAMES = 25;

function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`cannot read the exports of ${entry}`);
  return checker
    .getExportsOfModule(symbol)
    .map((exported) => exported.getName())
    .sort();
}

function userDocs(): string {
  const docs = readdirSync('docs')
    .filter((file) => file.endsWith('.md'))
    .map((file) => join('docs', file));
  return ['README.md', ...docs].map((file) => readFileSync(file, 'utf8')).join('\n');
}

describe('public API', () => {
  const root = exportedNames('src/index.ts');

  it(`should export at most ${MAX_ROOT_NAMES} names from the package root`, () => {
    expect(root.length).toBeGreaterThan(0);
    expect(root.length, root.join(', ')).toBeLessThanOrEqual(MAX_ROOT_NAMES);
  });

  it('should mention every root name in README.md or docs/', () => {
    const docs = userDocs();
    const undocumented = root.filter((name) => !new RegExp(`\\b${name}\\b`).test(docs));
    expect(undocumented).toEqual([]);
  });

  it('should describe every name of the testing subpath in docs/testing.md', () => {
    const docs = readFileSync(join('docs', 'testing.md'), 'utf8');
    const undocumented = exportedNames('src/testing/index.ts').filter(
      (name) => !new RegExp(`\\b${name}\\b`).test(docs),
    );
    expect(undocumented).toEqual([]);
  });

  it('should keep the internal and testing subpaths apart from the root', () => {
    const internal = exportedNames('src/internal.ts');
    const testing = exportedNames('src/testing/index.ts');
    expect(internal.filter((name) => root.includes(name))).toEqual([]);
    expect(testing.filter((name) => root.includes(name))).toEqual([]);
  });
});
