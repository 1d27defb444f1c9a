/**
 * The package root is a promise: a short list of names, each one documented for users.
 * The names are read from the compiled module's own export table (values and types alike),
 * so a new `export` in src/index.ts is counted whichever way it is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_ROOT_NAMES = 83;

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

/** Where the in-memory declarations are placed (nothing is written there). */
const DECLARATIONS = resolve('.public-api-declarations');

/**
 * The `.d.ts` text tsc writes for `entry` and every file it imports, kept in memory: in
 * declarations every type a signature names is written out, inferred return types included.
 */
function emitDeclarations(entry: string): Map<string, string> {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: resolve('src'),
    declarationDir: DECLARATIONS,
  };
  const files = new Map<string, string>();
  ts.createProgram([entry], options).emit(undefined, (name, text) => files.set(resolve(name), text));
  return files;
}

/** A program over declarations held in memory (packages still resolve from node_modules). */
function declarationProgram(files: Map<string, string>, entry: string): ts.Program {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => files.get(resolve(name)) ?? readFile(name);
  host.fileExists = (name) => files.has(resolve(name)) || fileExists(name);
  host.directoryExists = (name) => resolve(name).startsWith(DECLARATIONS) || ts.sys.directoryExists(name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(resolve(name));
    return text !== undefined
      ? ts.createSourceFile(name, text, language, true)
      : getSourceFile(name, language, ...rest);
  };
  return ts.createProgram([entry], options, host);
}

const isHidden = (node: ts.Node): boolean =>
  (ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some(
      (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
    )) ||
  ((ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node)) && ts.isPrivateIdentifier(node.name));

const NAMED_TYPE = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;

/**
 * The package's own types that the declarations of the root's exports name (public members,
 * parameters, returns, properties, type arguments, heritage), followed recursively, which the root
 * does not export: `Name (named by Other)`.
 */
function unexportedPublicTypes(files: Map<string, string>, entry: string): string[] {
  const program = declarationProgram(files, entry);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const target = (symbol: ts.Symbol): ts.Symbol =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const exported = new Set(checker.getExportsOfModule(module).map(target));
  const isOurs = (symbol: ts.Symbol): boolean =>
    (symbol.declarations ?? []).some((d) => files.has(resolve(d.getSourceFile().fileName)));
  const missing = new Map<string, string>();
  const queue = [...exported];
  const seen = new Set<ts.Symbol>();
  const note = (found: ts.Symbol | undefined, by: ts.Symbol): void => {
    const symbol = found && target(found);
    if (!symbol || !(symbol.flags & NAMED_TYPE) || !isOurs(symbol)) return;
    if (!exported.has(symbol) && !missing.has(symbol.getName()))
      missing.set(symbol.getName(), `${symbol.getName()} (named by ${by.getName()})`);
    queue.push(symbol);
  };
  const visit = (node: ts.Node, by: ts.Symbol): void => {
    if (isHidden(node)) return;
    if (ts.isTypeReferenceNode(node)) {
      const name = ts.isQualifiedName(node.typeName) ? node.typeName.right : node.typeName;
      note(checker.getSymbolAtLocation(name), by);
    } else if (ts.isExpressionWithTypeArguments(node)) {
      note(checker.getSymbolAtLocation(node.expression), by);
    } else if (ts.isImportTypeNode(node)) {
      const type = checker.getTypeFromTypeNode(node);
      note(type.aliasSymbol ?? type.getSymbol(), by);
    }
    ts.forEachChild(node, (child) => visit(child, by));
  };
  for (let symbol = queue.shift(); symbol !== undefined; symbol = queue.shift()) {
    if (seen.has(symbol)) continue;
    seen.add(symbol);
    for (const declaration of symbol.declarations ?? []) visit(declaration, symbol);
  }
  return [...missing.values()].sort();
}

/** Root names whose declaration has no TSDoc comment (`/** … *\/`) of its own. */
function undocumentedDeclarations(files: Map<string, string>, entry: string): string[] {
  const program = declarationProgram(files, entry);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker
    .getExportsOfModule(module)
    .filter((exported) => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      return !(symbol.declarations ?? []).some((declaration) => {
        const statement = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
        const text = statement.getSourceFile().text;
        const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
        return comments.some((range) => text.startsWith('/**', range.pos));
      });
    })
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

  describe('declarations', () => {
    const entry = resolve('src/index.ts');
    const files = emitDeclarations(entry);
    const rootDeclaration = join(DECLARATIONS, 'index.d.ts');

    it('should export from the root every type that a root export names', () => {
      expect(unexportedPublicTypes(files, rootDeclaration)).toEqual([]);
    });

    it('should find a type the root names but does not export', () => {
      const lonely = join(DECLARATIONS, 'lonely.d.ts');
      const withGap = new Map([
        [lonely, 'export interface Inner { a: number }\nexport declare function f(x: Inner): void;\n'],
        [rootDeclaration, "export { f } from './lonely.js';\n"],
      ]);
      expect(unexportedPublicTypes(withGap, rootDeclaration)).toEqual(['Inner (named by f)']);
    });

    it('should document every root name with TSDoc on its declaration', () => {
      expect(undocumentedDeclarations(files, rootDeclaration)).toEqual([]);
    });
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
