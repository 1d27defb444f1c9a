import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstructionProvider } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { useTempFolder } from '../../test/support/temp-folder.js';
import { agentsMdInstruction } from './agents-md-instruction.js';
import { instructionHeader } from './load-instructions.js';

const folder = useTempFolder('agents-md-provider-');

describe('agentsMdInstruction', () => {
  describe('provider', () => {
    it('should be usable as an LlmAgent instruction and give the merged text verbatim', async () => {
      await writeFile(join(folder(), 'AGENTS.md'), 'Reply as JSON: {"ok": true} and keep {placeholders}.');
      // Typed as ADK's InstructionProvider, so a signature ADK cannot call fails to compile.
      const provider: InstructionProvider = agentsMdInstruction({
        homeDir: join(folder(), 'none'),
        cwd: folder(),
        projectMarkers: [],
      });
      const text = await (provider as () => Promise<string>)();
      expect(text).toBe(
        `${instructionHeader('cwd', join(folder(), 'AGENTS.md'))}\nReply as JSON: {"ok": true} and keep {placeholders}.`,
      );
    });

    it('should give an empty string and log when loading fails unexpectedly, and load on the next call', async () => {
      await writeFile(join(folder(), 'AGENTS.md'), 'Rule one.');
      const errors: unknown[] = [];
      let reads = 0;
      const provider = agentsMdInstruction({
        homeDir: join(folder(), 'none'),
        cwd: folder(),
        projectMarkers: [],
        logger: { error: (...args: unknown[]) => errors.push(args) },
        // The first read is the options check when the provider is made; the second, the first load's.
        get fileName(): string {
          reads++;
          if (reads === 2) throw new Error('transient');
          return 'AGENTS.md';
        },
      });
      expect(await provider()).toBe('');
      expect(errors).toHaveLength(1);
      expect(await provider()).toContain('Rule one.');
    });

    it('should give an empty string when no file exists', async () => {
      expect(await agentsMdInstruction({ homeDir: join(folder(), 'none'), cwd: folder(), projectMarkers: [] })()).toBe(
        '',
      );
    });
  });
});
