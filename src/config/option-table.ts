/**
 * Every ContextGuard option, once, nested fields included: name, scope, range,
 * default (a computed one as words built from its constants), a short text and
 * a long text. The validator, the resolver's defaults, the known-keys list, the
 * budget, pin and truncation defaults all read it; `npm run docs:options`
 * writes the options tables of README.md (short texts) and docs/ (long texts)
 * from it, and option-table.test.ts fails when a doc or a field's TSDoc in
 * options.ts drifts from it. Written by group, one file each (budget, summarizer,
 * content, schedule and global options), and assembled here so every reader
 * reads one table. Plain data that imports nothing but its own groups, so any
 * folder may read it without a cycle.
 */
import { BUDGET_OPTIONS } from './budget-options.js';
import { CONTENT_OPTIONS } from './content-options.js';
import { GLOBAL_OPTIONS } from './global-options.js';
import type { OptionSpec } from './option-spec.js';
import { SCHEDULE_OPTIONS } from './schedule-options.js';
import { SUMMARIZER_OPTIONS } from './summarizer-options.js';

/** Every option, in the order the docs list them: policy options first, then the global ones. */
export const OPTION_TABLE = {
  ...BUDGET_OPTIONS,
  ...SUMMARIZER_OPTIONS,
  ...CONTENT_OPTIONS,
  ...SCHEDULE_OPTIONS,
  ...GLOBAL_OPTIONS,
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTION_TABLE;
type Table = typeof OPTION_TABLE;
export type PolicyOptionName = { [K in OptionName]: Table[K]['scope'] extends 'policy' ? K : never }[OptionName];
export type GlobalOptionName = Exclude<OptionName, PolicyOptionName>;
/** Options whose range the table cannot express (functions, objects): each has its own check in validation/other-checks.ts. */
export type OtherOptionName = {
  [K in OptionName]: Table[K]['range'] extends { readonly type: 'other' } ? K : never;
}[OptionName];

/** Every option name, policy options first, in table order. */
export const OPTION_NAMES = Object.keys(OPTION_TABLE) as OptionName[];
export const POLICY_OPTION_NAMES = OPTION_NAMES.filter(
  (name): name is PolicyOptionName => OPTION_TABLE[name].scope === 'policy',
);

/** The constant default of `name` (typed from the table). */
export function optionDefault<K extends OptionName>(
  name: K,
): Table[K] extends { readonly default: infer D } ? D : undefined {
  const spec: OptionSpec = OPTION_TABLE[name];
  return spec.default as Table[K] extends { readonly default: infer D } ? D : undefined;
}
