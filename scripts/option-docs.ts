/**
 * The options tables of the docs, written from the option table (src/config/option-table.ts):
 * README.md gets each option's short text, docs/configuration.md (and docs/truncation.md for the
 * truncation fields) the long text. Each table sits between `<!-- option-table:NAME -->` and
 * `<!-- /option-table:NAME -->`; `npm run docs:options` rewrites them and option-table.test.ts
 * fails when one drifts. Pure: text in, text out.
 */
import { OPTION_NAMES, OPTION_TABLE } from '../src/config/option-table.js';
import type { OptionSpec } from '../src/config/option-spec.js';
import { TOOL_FIELD_TABLE } from '../src/config/tool-fields.js';
import { TRUNCATION_FIELD_TABLE } from '../src/config/truncation-fields.js';

/** An option or a nested field: the scope matters to the README alone. */
type FieldSpec = Omit<OptionSpec, 'scope'> & { readonly scope?: OptionSpec['scope'] };

export type OptionTableName = 'readme' | 'policy' | 'global' | 'tool-fields' | 'truncation-fields';

/** Which doc holds which generated table (paths from the repository root). */
export const OPTION_DOCS: Readonly<Record<string, readonly OptionTableName[]>> = {
  'README.md': ['readme'],
  'docs/configuration.md': ['policy', 'global', 'tool-fields', 'truncation-fields'],
  'docs/truncation.md': ['truncation-fields'],
};

const number = (value: number): string => value.toLocaleString('en-US');

/** The range as the docs show it: `unit: range, note`. */
export function rangeText(spec: FieldSpec): string {
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

/** The default as the docs (and each field's `@default` TSDoc) show it. */
export function defaultText(spec: FieldSpec): string {
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (typeof spec.default === 'number') return number(spec.default);
  if (typeof spec.default === 'string') return `\`'${spec.default}'\``;
  return `\`${String(spec.default)}\``;
}

/** A docs/ row: name, range, default, long text. */
function longRow(name: string, spec: FieldSpec): string {
  return `| \`${name}\` | ${rangeText(spec)} | ${defaultText(spec)} | ${spec.long} |`;
}

/** A README row: name (and its scope), default, short text and the doc it links to. */
function readmeRow(name: string, spec: FieldSpec): string {
  const scope = spec.scope === 'global' ? ' (global)' : '';
  const text =
    spec.see === undefined
      ? spec.short
      : `${spec.short.replace(/\.$/, '')} ([${spec.see.split('#')[0] ?? ''}](${spec.see})).`;
  return `| \`${name}\`${scope} | ${defaultText(spec)} | ${text} |`;
}

const LONG_HEADER = ['| Field | Type and range | Default | Notes |', '|---|---|---|---|'];

function rows(table: Readonly<Record<string, FieldSpec>>, names: readonly string[], row: typeof longRow): string[] {
  return names.map((name) => row(name, table[name] as FieldSpec));
}

/** The markdown of one generated table, header included. */
export function renderOptionTable(name: OptionTableName): string {
  const scoped = (scope: OptionSpec['scope']): string[] =>
    OPTION_NAMES.filter((option) => OPTION_TABLE[option].scope === scope);
  const lines =
    name === 'readme'
      ? ['| Option | Default | Meaning |', '|---|---|---|', ...rows(OPTION_TABLE, OPTION_NAMES, readmeRow)]
      : name === 'tool-fields'
        ? [...LONG_HEADER, ...rows(TOOL_FIELD_TABLE, Object.keys(TOOL_FIELD_TABLE), longRow)]
        : name === 'truncation-fields'
          ? [...LONG_HEADER, ...rows(TRUNCATION_FIELD_TABLE, Object.keys(TRUNCATION_FIELD_TABLE), longRow)]
          : [...LONG_HEADER, ...rows(OPTION_TABLE, scoped(name), longRow)];
  return lines.join('\n');
}

// Blank lines around the table, so a markdown renderer never reads a marker as part of it.
const START = (name: OptionTableName): string => `<!-- option-table:${name} -->\n\n`;
const END = (name: OptionTableName): string => `\n\n<!-- /option-table:${name} -->`;

/** Where the table `name` sits in `markdown` (between its markers); throws when a marker is missing. */
function blockBounds(markdown: string, name: OptionTableName): { readonly from: number; readonly to: number } {
  const start = markdown.indexOf(START(name));
  const to = markdown.indexOf(END(name), start);
  if (start < 0 || to < 0) throw new Error(`no '${START(name).trim()}' ... '${END(name).trim()}' markers`);
  return { from: start + START(name).length, to };
}

/** The table `name` as `markdown` has it now. */
export function generatedBlock(markdown: string, name: OptionTableName): string {
  const { from, to } = blockBounds(markdown, name);
  return markdown.slice(from, to);
}

/** `markdown` with the tables `names` rewritten from the option table. */
export function rewriteOptionTables(markdown: string, names: readonly OptionTableName[]): string {
  return names.reduce((text, name) => {
    const { from, to } = blockBounds(text, name);
    return text.slice(0, from) + renderOptionTable(name) + text.slice(to);
  }, markdown);
}
