import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InstructionProvider } from '@google/adk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentsMdInstruction } from './agents-md-instruction.js';
import { instructionHeader } from './load-instructions.js';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'agents-md-provider-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('agentsMdInstruction', () => {
  describe('provider', () => {
    it('should be usable as an LlmAgent instruction and give the merged text verbatim', async () => {
      await writeFile(join(folder, 'AGENTS.md'), 'Reply as JSON: {"ok": true} and keep {placeholders}.');
      const provider: InstructionProvider = agentsMdInstruction({ homeDir: join(folder, 'none'), cwd: folder, projectMarkers: [] });
      const text = await agentsMdInstruction({ homeDir: join(folder, 'none'), cwd: folder, projectMarkers: [] })();
      expect(text).toBe(`${instructionHeader('cwd', join(folder, 'AGENTS.md'))}\nReply as JSON: {"ok": true} and keep {placeholders}.`);
      expect(typeof provider).toBe('function');
    });

    it('should give an empty string when no file exists', async () => {
      expect(await agentsMdInstruction({ homeDir: join(folder, 'none'), cwd: folder, projectMarkers: [] })()).toBe('');
    });
  });
});
