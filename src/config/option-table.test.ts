/**
 * The option table is the one source of every option's name, scope, range and
 * default: the docs tables (docs/configuration.md, README.md) and the JSDoc
 * `@default` figures of src/options.ts must agree with it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from './closest-name.js';
import { OPTION_NAMES, OPTION_TABLE, POLICY_OPTION_NAMES, type OptionName, type OptionSpec } from './option-table.js';

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');

const number = (value: number): string => value.toLocaleString('en-US');

/** The range as the docs show it: `unit: range, note`. */
function rangeText(spec: OptionSpec): string {
  const range = spec.range;
  const text =
    range.type === 'integer'
      ? range.max === undefined
        ? `integer ≥ ${number(range.min)}`
        : `integer in [${number(range.min)}, ${number(range.max)}]`
      : range.type === 'number'
        ? `${range.minInclusive ? '[' : '('}${range.min}, ${range.max}]`
        : range.type === 'enum'
          ? range.values.map((value) => `\`'${value}'\``).join(' \\| ')
          : range.type === 'boolean'
            ? 'boolean'
            : range.text;
  return `${spec.unit ? `${spec.unit}: ` : ''}${text}${spec.rangeNote ? `, ${spec.rangeNote}` : ''}`;
}

/** The default as the docs show it. */
function defaultText(spec: OptionSpec): string {
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (typeof spec.default === 'number') return number(spec.default);
  if (typeof spec.default === 'string') return `\`'${spec.default}'\``;
  return `\`${String(spec.default)}\``;
}

function expectedRow(name: OptionName): string {
  const spec: OptionSpec = OPTION_TABLE[name];
  return `| \`${name}\` | ${rangeText(spec)} | ${defaultText(spec)} | ${spec.doc} |`;
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
