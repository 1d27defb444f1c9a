/**
 * A plugin that puts the AGENTS.md hierarchy in front of every agent's system
 * instruction (seed 002, section 5).
 *
 * Prepending in `beforeModelCallback` (rather than setting `instruction`)
 * keeps each agent's own instruction, with ADK's `{state}` templating, after
 * the project rules. The AGENTS.md text itself is never templated: braces in
 * it stay literal (a string `instruction` would make ADK look them up in
 * session state and fail on a missing key).
 *
 * Register it before `ContextGuard`, so the guard measures the request with
 * the instructions in it (plugins run in registration order).
 */
import { BasePlugin, getLogger, type Context, type LlmRequest, type LlmResponse } from '@google/adk';
import type { GuardLogger } from '../options.js';
import {
  createInstructionsCache,
  INSTRUCTIONS_CACHE_FIELDS,
  type InstructionsCache,
  type InstructionsCacheOptions,
} from './load-once.js';
import type { LoadedInstructions } from './load-instructions.js';
import { prependSystemInstruction } from './prepend-system-instruction.js';
import { checkFactoryOptions } from '../validation/factory-options.js';
import { logFailure } from '../logging/failure-log.js';

/** Options of `AgentsMdInstructionsPlugin`. */
export interface AgentsMdInstructionsOptions extends InstructionsCacheOptions {
  /** Plugin name, as ADK shows it. @default 'agents_md_instructions' */
  name?: string;
  /** Where truncation warnings and failures go. @default ADK's logger */
  logger?: GuardLogger;
}

const LOG_PREFIX = '[agents_md_instructions]';

/** Logs a warning naming what the byte limit cut, once per load. */
function reportInstructionsTruncation(loaded: LoadedInstructions, logger: Pick<GuardLogger, 'warn'>): void {
  if (loaded.truncated.length === 0) return;
  const cuts = loaded.truncated.map((cut) => `${cut.path} (${cut.kind}, ${cut.droppedBytes} bytes dropped)`).join(', ');
  logger.warn(`${LOG_PREFIX} instructions over the limit; cut: ${cuts}.`);
}

/**
 * Prepends the merged AGENTS.md files (home, project root, working
 * directory) to `llmRequest.config.systemInstruction` before each model call.
 * The files are read once, on the first request, unless `cache: false`;
 * `reload()` re-reads them. Never fails a turn: unreadable files are skipped.
 *
 * @example
 * new Runner({ appName, agent, sessionService, plugins: [new AgentsMdInstructionsPlugin(), new ContextGuard()] })
 */
export class AgentsMdInstructionsPlugin extends BasePlugin {
  private readonly instructionsCache: InstructionsCache;
  private readonly logger: GuardLogger;

  /** @throws ContextGuardConfigError for an option out of range or a key that is no option. */
  constructor(options: AgentsMdInstructionsOptions = {}) {
    checkFactoryOptions('AgentsMdInstructionsPlugin', options, {
      ...INSTRUCTIONS_CACHE_FIELDS,
      name: 'text',
      logger: 'logger',
    });
    super(options.name ?? 'agents_md_instructions');
    const logger = options.logger ?? getLogger();
    this.logger = logger;
    this.instructionsCache = createInstructionsCache({
      ...options,
      logger,
      onLoad: (loaded) => {
        reportInstructionsTruncation(loaded, logger);
        options.onLoad?.(loaded);
      },
    });
  }

  /** The merged instructions (loaded on first use). */
  instructions(): Promise<LoadedInstructions> {
    return this.instructionsCache.get();
  }

  /** Reads the files again; later requests get the new text. */
  reload(): Promise<LoadedInstructions> {
    return this.instructionsCache.reload();
  }

  override async beforeModelCallback({
    llmRequest,
  }: {
    callbackContext: Context;
    llmRequest: LlmRequest;
  }): Promise<LlmResponse | undefined> {
    try {
      const { text } = await this.instructionsCache.get();
      if (text.length === 0) return undefined;
      llmRequest.config = llmRequest.config ?? {};
      llmRequest.config.systemInstruction = prependSystemInstruction(llmRequest.config.systemInstruction, text);
    } catch (error) {
      // Fail open: the request goes without the extra instructions rather than failing the turn.
      logFailure(
        this.logger,
        'error',
        `${LOG_PREFIX} could not add the AGENTS.md instructions; the request is sent without them.`,
        error,
      );
    }
    return undefined;
  }
}
