/**
 * How the option table describes an option (scope, range, default, texts), and
 * the helpers its groups write ranges and computed defaults with. Plain data,
 * no imports, so any folder may read it without a cycle.
 */

/** `policy`: global or per agent under `agents`; `global`: top level only. */
export type OptionScope = 'policy' | 'global';

export type OptionRange =
  | { readonly type: 'integer'; readonly min: number; readonly max?: number }
  | { readonly type: 'number'; readonly min: number; readonly max: number; readonly minInclusive: boolean }
  | { readonly type: 'boolean' }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  /** Checked by its own check in validation/other-checks.ts; `text` says what is accepted. */
  | { readonly type: 'other'; readonly text: string };

export interface OptionSpec {
  readonly scope: OptionScope;
  readonly range: OptionRange;
  /** What the number measures, shown before the range in docs. */
  readonly unit?: string;
  /** A rule that depends on another option, shown after the range in docs. */
  readonly rangeNote?: string;
  /** The default when it is a constant; absent when it is computed at run time. */
  readonly default?: number | boolean | string;
  /** The default as docs show it, when it is computed or not a constant. */
  readonly defaultText?: string;
  /** One sentence: the README table's text, and the start of the field's TSDoc. */
  readonly short: string;
  /** Everything a user may need to know (markdown, links relative to docs/): docs/configuration.md's text. */
  readonly long: string;
  /** A doc the README row links to after the short text (relative to the repository root). */
  readonly see?: string;
}

type IntegerRange = Extract<OptionRange, { readonly type: 'integer' }>;
export const integer = (min: number, max?: number): IntegerRange =>
  max === undefined ? { type: 'integer', min } : { type: 'integer', min, max };
export const between = (min: number, max: number, minInclusive = false): OptionRange => ({
  type: 'number',
  min,
  max,
  minInclusive,
});
export const BOOLEAN: OptionRange = { type: 'boolean' };
export const other = (text: string): { readonly type: 'other'; readonly text: string } => ({ type: 'other', text });
/** A figure as the docs write it (20,000). */
export const figure = (value: number): string => value.toLocaleString('en-US');
export const percent = (share: number): string => `${Math.round(share * 100)}%`;

/**
 * The most tokens any count the guard reads or is given can plausibly be: a count read back from state above it is
 * dropped (state/codec.ts), and a window option above it is refused (a window of `1e308` passed as an integer:
 * review 32).
 */
export const MAX_PLAUSIBLE_TOKENS = 100_000_000;
