import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every name a src/ file exports is imported by another file (in src/, test/, simulator/, bench/
 * or demo/) or re-exported by one: an export nothing uses only widens what a reader must keep in
 * mind. The entry points themselves (src/index.ts, src/internal.ts, src/testing/index.ts) are the
 * package's API (test/package/public-api.test.ts); of them, ./internal holds only what the tests,
 * the simulator and the bench use, checked here. Parsing only, no type check: the scan reads
 * import and export clauses, so it stays fast.
 */
const SOURCE = fileURLToPath(new URL('.', import.meta.url));
const REPOSITORY = resolve(SOURCE, '..');
const USER_FOLDERS = ['src', 'test', 'simulator', 'bench', 'demo'];
const ENTRY_POINTS = ['index.ts', 'internal.ts', join('testing', 'index.ts')].map((file) => join(SOURCE, file));
/** Every name of a module, as `import * as` or `export *` take it. */
const ALL = '*';

function typeScriptFiles(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFiles(path);
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./a.js` is `./a.ts`), or undefined for a package. */
function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const path = resolve(dirname(from), specifier);
  const candidates = [path.replace(/\.(m?)js$/, '.$1ts'), `${path}.ts`, join(path, 'index.ts')];
  return candidates.find((candidate) => known.has(candidate));
}

const hasExportModifier = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file declares with `export` (or lists in a local `export { … }`). */
function declaredExports(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement): string[] => {
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause)
      return ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map((element) => element.name.text)
        : [];
    if (!hasExportModifier(statement)) return [];
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
    const name = (statement as ts.DeclarationStatement).name;
    return name !== undefined && ts.isIdentifier(name) ? [name.text] : [];
  });
}

/** `A` of `import('./x.js').A.B`. */
const firstName = (name: ts.EntityName): string => (ts.isIdentifier(name) ? name.text : firstName(name.left));

/** `file#name` for each name a file imports or re-exports from another file of the repository. */
function usedExports(path: string, source: ts.SourceFile, known: ReadonlySet<string>): string[] {
  const used: string[] = [];
  const take = (specifier: ts.Expression | undefined, names: string[]): void => {
    if (specifier === undefined || !ts.isStringLiteral(specifier)) return;
    const target = resolveSpecifier(path, specifier.text, known);
    if (target !== undefined) used.push(...names.map((name) => `${target}#${name}`));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) take(node.moduleSpecifier, [ALL]);
      if (bindings && ts.isNamedImports(bindings))
        take(
          node.moduleSpecifier,
          bindings.elements.map((e) => (e.propertyName ?? e.name).text),
        );
      if (node.importClause?.name) take(node.moduleSpecifier, ['default']);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause;
      take(
        node.moduleSpecifier,
        clause && ts.isNamedExports(clause) ? clause.elements.map((e) => (e.propertyName ?? e.name).text) : [ALL],
      );
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      take(node.argument.literal, [node.qualifier ? firstName(node.qualifier) : ALL]);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      take(node.arguments[0], [ALL]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return used;
}

interface ParsedFile {
  path: string;
  text: string;
  /** Names it declares with `export`. */
  exports: string[];
  /** Names it re-exports from another file (`export { a } from './a.js'`), as exported. */
  reexports: string[];
  uses: string[];
}

/** The names a file re-exports from other modules, as it exports them. */
function reexportedNames(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement) =>
    ts.isExportDeclaration(statement) && statement.moduleSpecifier && statement.exportClause
      ? ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map((element) => element.name.text)
        : []
      : [],
  );
}

/** Parses each file (path to text); `known` is every path, so that imports resolve among them. */
function parseAll(texts: ReadonlyMap<string, string>): ParsedFile[] {
  const known = new Set(texts.keys());
  return [...texts].map(([path, text]) => {
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    return {
      path,
      text,
      exports: declaredExports(source),
      reexports: reexportedNames(source),
      uses: usedExports(path, source, known),
    };
  });
}

/** `file: name` for each export of a src/ file (entry points aside) that no other file uses. */
function unusedExports(files: ParsedFile[], isChecked: (path: string) => boolean): string[] {
  const used = new Set(files.flatMap((file) => file.uses.filter((use) => !use.startsWith(`${file.path}#`))));
  return files
    .filter((file) => isChecked(file.path))
    .flatMap((file) =>
      file.exports
        .filter((name) => !used.has(`${file.path}#${name}`) && !used.has(`${file.path}#${ALL}`))
        .map((name) => `${relative(REPOSITORY, file.path)}: ${name}`),
    );
}

/**
 * Names of the `./internal` entry point that no test, simulator or bench file uses: imported from
 * it, or (in a file that loads the built subpath by package name) named at all.
 */
function unusedInternalNames(files: ParsedFile[], internal: string): string[] {
  const entry = files.find((file) => file.path === internal);
  const users = files.filter((file) => file.path !== internal && !isLibrarySource(file.path));
  const used = new Set(users.flatMap((file) => file.uses));
  const byPackageName = users.filter((file) => file.text.includes('adk-context-guard/internal'));
  return (entry?.reexports ?? []).filter(
    (name) =>
      !used.has(`${internal}#${name}`) && !byPackageName.some((file) => new RegExp(`\\b${name}\\b`).test(file.text)),
  );
}

/** A file of the library itself: src/, tests aside. */
const isLibrarySource = (path: string): boolean => path.startsWith(SOURCE) && !path.endsWith('.test.ts');

const isCheckedSource = (path: string): boolean =>
  path.startsWith(SOURCE) && !path.endsWith('.test.ts') && !ENTRY_POINTS.includes(path);

describe('unused exports', () => {
  it('should find an export only its own file uses, and pass over one another file imports', () => {
    const a = join(SOURCE, 'a.ts');
    const b = join(SOURCE, 'b.ts');
    const files = parseAll(
      new Map([
        [a, 'export const used = 1;\nexport interface Lonely { x: number }\nexport function alsoLonely() {}\n'],
        [b, "import { used } from './a.js';\nexport type { Lonely as Renamed } from './a.js';\n"],
      ]),
    );
    expect(unusedExports(files, (path) => path === a)).toEqual(['src/a.ts: alsoLonely']);
  });

  const paths = USER_FOLDERS.flatMap((folder) => typeScriptFiles(join(REPOSITORY, folder)));
  const files = parseAll(new Map(paths.map((path) => [path, readFileSync(path, 'utf8')])));

  it('should find no export in src/ that no other file imports or re-exports', () => {
    expect(unusedExports(files, isCheckedSource)).toEqual([]);
  });

  it('should find a name of ./internal that only the library uses', () => {
    const internal = join(SOURCE, 'internal.ts');
    const a = join(SOURCE, 'a.ts');
    const test = join(REPOSITORY, 'test', 'a.test.ts');
    const fixture = parseAll(
      new Map([
        [a, 'export const forTests = 1;\nexport const forNobody = 2;\n'],
        [internal, "export { forTests, forNobody } from './a.js';\n"],
        [test, "import { forTests } from '../src/internal.js';\n"],
      ]),
    );
    expect(unusedInternalNames(fixture, internal)).toEqual(['forNobody']);
  });

  it('should keep in ./internal only what tests, the simulator and the bench use', () => {
    expect(unusedInternalNames(files, join(SOURCE, 'internal.ts'))).toEqual([]);
  });
});
