import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No function in src/ (tests aside) is longer than 60 lines, counted from the first to the last
 * line of its body (a nested function counts within its outer one too).
 */
const SOURCE = fileURLToPath(new URL('.', import.meta.url));
const MAX_LINES = 60;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each function-like node's body length in lines, as `file:line name (N lines)`, over `max`. */
function longFunctions(path: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (position: number): number => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const body = node.body as ts.Node;
      const lines = lineOf(body.getEnd()) - lineOf(body.getStart(source)) + 1;
      const name = node.name !== undefined ? node.name.getText(source) : '(anonymous)';
      if (lines > max)
        found.push(`${relative(SOURCE, path)}:${lineOf(node.getStart(source))} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it('should count a long body and pass over a short one', () => {
    const body = Array.from({ length: MAX_LINES }, (_, index) => `  const a${index} = ${index};`).join('\n');
    const long = longFunctions(join(SOURCE, 'long.ts'), `function long() {\n${body}\n}\n`, MAX_LINES);
    const short = longFunctions(join(SOURCE, 'short.ts'), `const short = () => {\n  return 1;\n};\n`, MAX_LINES);
    expect(long).toEqual([`long.ts:1 long (${MAX_LINES + 2} lines)`]);
    expect(short).toEqual([]);
  });

  it(`should find no function in src/ over ${MAX_LINES} lines`, () => {
    const over = sourceFiles(SOURCE).flatMap((file) => longFunctions(file, readFileSync(file, 'utf8'), MAX_LINES));
    expect(over).toEqual([]);
  });
});
