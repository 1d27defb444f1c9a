/**
 * The AGENTS.md hierarchy as an `LlmAgent` instruction.
 *
 * It is a function (an ADK `InstructionProvider`), not a string, on purpose:
 * ADK runs `{placeholder}` substitution from session state on string
 * instructions and fails on a missing key, and AGENTS.md files often contain
 * braces (code samples, JSON). Provider output is used verbatim.
 */
import { checkFactoryOptions } from '../validation/factory-options.js';
import { createInstructionsCache, INSTRUCTIONS_CACHE_FIELDS, type InstructionsCacheOptions } from './load-once.js';

/**
 * An instruction provider: assignable to `LlmAgent`'s `instruction` (ADK's
 * `InstructionProvider` passes a context this provider does not need).
 */
export type AgentsMdInstructionProvider = () => Promise<string>;

/**
 * Returns an instruction provider with the merged AGENTS.md files (home,
 * project root, working directory; 32 KiB at most). The files are read on
 * the first request and cached (`cache: false` re-reads them each time).
 * Report truncation with `onLoad` (`loaded.truncated`).
 *
 * This replaces the agent's own `instruction`; to keep one, use
 * `AgentsMdInstructionsPlugin`, which prepends instead.
 *
 * @example
 * new LlmAgent({ name: 'coder', model, instruction: agentsMdInstruction({ onLoad: (l) => console.log(l.truncated) }) })
 * @throws ContextGuardConfigError for an option out of range or a key that is no option.
 */
export function agentsMdInstruction(options: InstructionsCacheOptions = {}): AgentsMdInstructionProvider {
  checkFactoryOptions('agentsMdInstruction()', options, INSTRUCTIONS_CACHE_FIELDS);
  const cache = createInstructionsCache(options);
  return async () => {
    try {
      return (await cache.get()).text;
    } catch (error) {
      // An unexpected failure must not fail the agent's turn: no instructions this time, a retry next time.
      options.logger?.error(
        '[agents_md_instructions] could not load the instructions; the agent runs without them this turn.',
        error,
      );
      return '';
    }
  };
}
