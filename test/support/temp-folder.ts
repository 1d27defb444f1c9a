/**
 * A fresh temporary folder for each test of a file, holding the given files, and removed after
 * the test: for code that reads the filesystem (AGENTS.md instructions).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/**
 * Registers the hooks that make and remove the folder; call it at the top of a test file. The
 * returned function gives the current test's folder (`files`: name → content, written first).
 */
export function useTempFolder(prefix: string, files: Readonly<Record<string, string>> = {}): () => string {
  let folder: string | undefined;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
    for (const [name, content] of Object.entries(files)) await writeFile(join(folder, name), content);
  });
  afterEach(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
    folder = undefined;
  });
  return () => {
    if (folder === undefined) throw new Error('useTempFolder: the folder exists only while a test runs');
    return folder;
  };
}
