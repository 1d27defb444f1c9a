/**
 * Loads the AGENTS.md hierarchy once and shares the result, so the files are
 * read on the first model request, not on every step. Concurrent first calls
 * share one read.
 */
import type { GuardLogger } from '../options.js';
import { BOOLEAN } from '../config/option-spec.js';
import type { FieldCheck } from '../validation/factory-options.js';
import {
  LOAD_INSTRUCTIONS_FIELDS,
  loadInstructions,
  type LoadedInstructions,
  type LoadInstructionsOptions,
} from './load-instructions.js';

/** Options of the cache: the loader's, plus caching and a load hook. */
export interface InstructionsCacheOptions extends LoadInstructionsOptions {
  /**
   * Keep the first load. `false` re-reads the files on every `get()` (edits
   * show up at once, at the cost of a few file reads per model request).
   * @default true
   */
  cache?: boolean;
  /** Called after every load, with what was merged and what the byte limit cut. */
  onLoad?: (loaded: LoadedInstructions) => void;
  /** Where a failing `onLoad` is reported (the instructions are still used). @default none */
  logger?: Pick<GuardLogger, 'error'>;
}

/** The cache's options as the factories that take them check them. */
export const INSTRUCTIONS_CACHE_FIELDS = {
  ...LOAD_INSTRUCTIONS_FIELDS,
  cache: BOOLEAN,
  onLoad: 'function',
  logger: 'any',
} as const satisfies Readonly<Record<keyof InstructionsCacheOptions, FieldCheck>>;

/** A shared, lazily loaded copy of the instructions. */
export interface InstructionsCache {
  /** The instructions, loaded on first use (or every time when `cache` is false). */
  get(): Promise<LoadedInstructions>;
  /** Reads the files again and keeps the new result. */
  reload(): Promise<LoadedInstructions>;
}

/** The loader's own options of `options`, read at each load: the loader refuses the cache's and a plugin's. */
function loaderOptionsOf(options: InstructionsCacheOptions): LoadInstructionsOptions {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(LOAD_INSTRUCTIONS_FIELDS))
    if (key in options) picked[key] = options[key as keyof LoadInstructionsOptions];
  return picked;
}

/**
 * Creates an `InstructionsCache`. The loader skips what it cannot read; a load
 * that fails all the same rejects that call only and is not kept.
 */
export function createInstructionsCache(options: InstructionsCacheOptions = {}): InstructionsCache {
  let pending: Promise<LoadedInstructions> | undefined;
  const load = (): Promise<LoadedInstructions> =>
    Promise.resolve()
      .then(() => loadInstructions(loaderOptionsOf(options)))
      .then((loaded) => {
        try {
          options.onLoad?.(loaded);
        } catch (error) {
          // A failing hook must not cost the agent its instructions, nor poison the cache.
          options.logger?.error('[agents_md_instructions] onLoad listener failed.', error);
        }
        return loaded;
      });
  const reload = (): Promise<LoadedInstructions> => {
    const loading = load();
    pending = loading;
    // A load that failed all the same (an unexpected error) is not kept: the next get() tries again.
    loading.catch(() => {
      if (pending === loading) pending = undefined;
    });
    return loading;
  };
  return {
    get: () => (options.cache === false || !pending ? reload() : pending),
    reload,
  };
}
