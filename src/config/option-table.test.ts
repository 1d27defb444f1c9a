/**
 * The option table is the one source of every option's name, scope, range,
 * default and texts: the docs tables (README.md, docs/configuration.md,
 * docs/truncation.md) are written from it by `npm run docs:options`, and each
 * field's TSDoc in src/options.ts and src/truncation/policy.ts must
 * carry its short text and its default.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultText, generatedBlock, OPTION_DOCS, rangeText, renderOptionTable } from '../../scripts/option-docs.js';
import { closestName, editDistance } from './closest-name.js';
import { OPTION_NAMES, OPTION_TABLE, POLICY_OPTION_NAMES, type OptionName } from './option-table.js';
import type { OptionSpec } from './option-spec.js';
import { TOOL_FIELD_TABLE } from './tool-fields.js';
import { TRUNCATION_FIELD_TABLE } from './truncation-fields.js';

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');

function expectedRow(name: OptionName): string {
  const spec: OptionSpec = OPTION_TABLE[name];
  return `| \`${name}\` | ${rangeText(spec)} | ${defaultText(spec)} | ${spec.long} |`;
}

/** Rows of markdown tables whose first cell starts with a backticked name. */
function optionRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => /^\| `[A-Za-z]/.test(line));
}

/** The part of `markdown` under the heading `title`, up to the next heading of the same level. */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  expect(start, `section '${title}'`).toBeGreaterThanOrEqual(0);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** Each optional field's TSDoc in `source`, by field name, on one line (`*` margins and line breaks gone). */
function fieldDocs(source: string): Map<string, string> {
  const docs = new Map<string, string>();
  for (const [, doc = '', name = ''] of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*(\w+)\?:/g)) {
    expect(docs.has(name), `one TSDoc for '${name}'`).toBe(false);
    docs.set(
      name,
      doc
        .replace(/^\s*\*/gm, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }
  return docs;
}

/** Where a field's TSDoc disagrees with its table entry: the short text missing, or another `@default`. */
function tsDocMismatches(
  docs: Map<string, string>,
  table: Readonly<Record<string, Omit<OptionSpec, 'scope'>>>,
): string[] {
  return Object.entries(table).flatMap(([name, spec]) => {
    const doc = docs.get(name);
    if (doc === undefined) return [`${name}: no TSDoc`];
    const problems: string[] = [];
    if (!doc.includes(spec.short)) problems.push(`${name}: TSDoc lacks the short text '${spec.short}'`);
    const stated = /@default (.*)$/.exec(doc)?.[1];
    const expected = defaultText(spec);
    if (expected === '–' ? stated !== undefined : stated !== expected)
      problems.push(`${name}: @default '${stated ?? '(none)'}', table '${expected}'`);
    return problems;
  });
}

describe('the option table', () => {
  describe('docs/configuration.md', () => {
    const docs = read('../../docs/configuration.md');

    it('should list every policy option, in table order, exactly as the table says (range, default, doc)', () => {
      expect(optionRows(section(docs, 'Policy fields (global, or per agent under `agents`)'))).toEqual(
        POLICY_OPTION_NAMES.map(expectedRow),
      );
    });

    it('should list every global-only option, in table order, exactly as the table says', () => {
      const globals = OPTION_NAMES.filter((name) => OPTION_TABLE[name].scope === 'global');
      expect(optionRows(section(docs, 'Global-only fields'))).toEqual(globals.map(expectedRow));
    });
  });

  describe('README.md', () => {
    const readme = section(read('../../README.md'), 'Configuration');
    const rows = optionRows(readme).map((line) => line.split(' | ').map((cell) => cell.replace(/^\| /, '')));

    /** The names a row's first cell lists (`a`, `b` (global)). */
    const namesOf = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');

    it('should list options the table has, with their scope', () => {
      expect(rows.length).toBeGreaterThan(10);
      for (const [first = ''] of rows) {
        for (const name of namesOf(first)) {
          expect(OPTION_NAMES, `README lists '${name}'`).toContain(name);
          expect(first.endsWith(' (global)'), `README's scope of '${name}'`).toBe(
            OPTION_TABLE[name as OptionName].scope === 'global',
          );
        }
      }
    });

    it('should show the default the table has', () => {
      for (const [first = '', defaultCell] of rows) {
        for (const name of namesOf(first))
          expect(defaultCell, `README's default of '${name}'`).toBe(defaultText(OPTION_TABLE[name as OptionName]));
      }
    });
  });

  describe('generated tables', () => {
    it.each(Object.entries(OPTION_DOCS).flatMap(([file, tables]) => tables.map((table) => [file, table] as const)))(
      '%s should hold the %s table exactly as the option table writes it (npm run docs:options)',
      (file, table) => {
        expect(generatedBlock(read(`../../${file}`), table)).toBe(renderOptionTable(table));
      },
    );

    it("should state maxPinnedTokens' half-window cap in the README and in docs/configuration.md", () => {
      const row = (markdown: string): string =>
        optionRows(markdown).find((line) => line.startsWith('| `maxPinnedTokens`')) ?? '';
      expect(row(read('../../README.md'))).toContain('never more than half the window');
      expect(row(read('../../docs/configuration.md'))).toContain('never more than half the window');
    });

    it('should list every field of toolOutputTruncation and of a tools entry in docs/configuration.md', () => {
      const docs = read('../../docs/configuration.md');
      const names = (title: string): string[] =>
        optionRows(section(docs, title)).map((line) => /^\| `(\w+)`/.exec(line)?.[1] ?? '');
      expect(names('Tool-output truncation fields (`toolOutputTruncation`)')).toEqual(
        Object.keys(TRUNCATION_FIELD_TABLE),
      );
      expect(names('Per-tool declarations (`tools`)')).toEqual(Object.keys(TOOL_FIELD_TABLE));
    });
  });

  describe('TSDoc of the option types', () => {
    it("should start each ContextGuardOptions / AgentPolicy / ToolDeclaration field's TSDoc with the table's words: its short text and @default", () => {
      const docs = fieldDocs(read('../options.ts'));
      expect(tsDocMismatches(docs, OPTION_TABLE)).toEqual([]);
      expect(tsDocMismatches(docs, TOOL_FIELD_TABLE)).toEqual([]);
    });

    it("should give each toolOutputTruncation field's TSDoc the table's short text and @default", () => {
      const docs = fieldDocs(read('../truncation/policy.ts'));
      expect(tsDocMismatches(docs, TRUNCATION_FIELD_TABLE)).toEqual([]);
    });
  });

  describe('JSDoc of src/options.ts', () => {
    const source = read('../options.ts');

    it('should give the table default wherever a field documents a numeric @default', () => {
      const mismatches: string[] = [];
      let checked = 0;
      for (const match of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*(\w+)\?:/g)) {
        const [, doc = '', name = ''] = match;
        const figure = /@default (-?[\d,.]+)(?:\s|$)/.exec(doc)?.[1];
        if (figure === undefined || !(name in OPTION_TABLE)) continue;
        const spec: OptionSpec = OPTION_TABLE[name as OptionName];
        // A computed default (bufferTokens) is described in words by both.
        if (spec.default === undefined) continue;
        checked++;
        if (Number(figure.replace(/,/g, '').replace(/\.$/, '')) !== spec.default)
          mismatches.push(`${name}: @default ${figure}, table ${String(spec.default)}`);
      }
      expect(mismatches).toEqual([]);
      expect(checked).toBeGreaterThan(10);
    });
  });
});

describe('closestName', () => {
  const names = ['contextWindow', 'defaultContextWindow', 'bufferTokens', 'bufferRatio', 'enabled', 'name', 'agents'];

  it.each([
    ['contextWindowTokens', 'contextWindow'],
    ['defaultContextWindowTokens', 'defaultContextWindow'],
    ['buferTokens', 'bufferTokens'],
    ['BufferTokens', 'bufferTokens'],
    ['bufferratio', 'bufferRatio'],
    ['enable', 'enabled'],
    ['agent', 'agents'],
  ])('should take %s for %s', (key, expected) => {
    expect(closestName(key, names)).toBe(expected);
  });

  it('should suggest nothing for a key that is no plausible typo', () => {
    expect(closestName('temperature', names)).toBeUndefined();
    expect(closestName('x', names)).toBeUndefined();
  });
});

describe('editDistance', () => {
  it('should count insertions, deletions and substitutions', () => {
    expect(editDistance('bufer', 'buffer')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
