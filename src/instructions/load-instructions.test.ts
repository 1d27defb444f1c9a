import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFolder } from '../../test/support/temp-folder.js';
import { findProjectRoot, instructionHeader, loadInstructions } from './load-instructions.js';

const root = useTempFolder('agents-md-');

/** Writes `files` (relative path → content; `null` makes a folder) under the temp root. */
async function layout(files: Record<string, string | null>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root(), path);
    if (content === null) {
      await mkdir(full, { recursive: true });
    } else {
      await mkdir(join(full, '..'), { recursive: true });
      await writeFile(full, content);
    }
  }
}

/** home/, a repository at work/repo (package.json) and a working directory inside it. */
async function standardLayout(texts: { home?: string; project?: string; cwd?: string } = {}) {
  await layout({
    'home/AGENTS.md': texts.home ?? 'Home rule: be concise.',
    'work/repo/package.json': '{}',
    'work/repo/AGENTS.md': texts.project ?? 'Project rule: use pnpm.',
    'work/repo/packages/app/AGENTS.md': texts.cwd ?? 'App rule: React hooks only.',
  });
  return {
    homeDir: join(root(), 'home'),
    cwd: join(root(), 'work/repo/packages/app'),
    project: join(root(), 'work/repo'),
  };
}

describe('loadInstructions', () => {
  describe('merging', () => {
    it('should merge home, project root and working directory in that order, each under a header', async () => {
      const { homeDir, cwd, project } = await standardLayout();
      const loaded = await loadInstructions({ homeDir, cwd });
      expect(loaded.text).toBe(
        [
          `${instructionHeader('home', join(homeDir, 'AGENTS.md'))}\nHome rule: be concise.`,
          `${instructionHeader('project', join(project, 'AGENTS.md'))}\nProject rule: use pnpm.`,
          `${instructionHeader('cwd', join(cwd, 'AGENTS.md'))}\nApp rule: React hooks only.`,
        ].join('\n\n'),
      );
      expect(loaded.sources.map((source) => [source.kind, source.status])).toEqual([
        ['home', 'loaded'],
        ['project', 'loaded'],
        ['cwd', 'loaded'],
      ]);
      expect(loaded.bytes).toBe(Buffer.byteLength(loaded.text));
      expect(loaded.truncated).toEqual([]);
    });

    it('should name each source in its header', () => {
      expect(instructionHeader('home', '/u/AGENTS.md')).toBe('# Instructions from /u/AGENTS.md (user home)');
      expect(instructionHeader('project', '/p/AGENTS.md')).toBe('# Instructions from /p/AGENTS.md (project root)');
      expect(instructionHeader('cwd', '/p/a/AGENTS.md')).toBe('# Instructions from /p/a/AGENTS.md (working directory)');
    });

    it('should read a file once when the project root is the working directory', async () => {
      const { homeDir, project } = await standardLayout();
      const loaded = await loadInstructions({ homeDir, cwd: project });
      expect(loaded.sources.map((source) => source.status)).toEqual(['loaded', 'loaded', 'duplicate']);
      expect(loaded.sources[2]?.reason).toBe('same file as the project root source');
      expect(loaded.text.match(/Project rule/g)).toHaveLength(1);
    });

    it('should read a file once when the home folder is the project root', async () => {
      await layout({ 'home/.git': null, 'home/AGENTS.md': 'dotfiles rule', 'home/src/AGENTS.md': 'src rule' });
      const loaded = await loadInstructions({ homeDir: join(root(), 'home'), cwd: join(root(), 'home/src') });
      expect(loaded.sources.map((source) => [source.kind, source.status])).toEqual([
        ['home', 'loaded'],
        ['project', 'duplicate'],
        ['cwd', 'loaded'],
      ]);
    });

    it('should treat two paths of one file (a symbolic link) as duplicates', async () => {
      const { homeDir, cwd, project } = await standardLayout();
      await rm(join(cwd, 'AGENTS.md'));
      await symlink(join(project, 'AGENTS.md'), join(cwd, 'AGENTS.md'));
      const loaded = await loadInstructions({ homeDir, cwd });
      expect(loaded.sources.map((source) => source.status)).toEqual(['loaded', 'loaded', 'duplicate']);
    });

    it('should use another file name and strip a byte-order mark and trailing blank lines', async () => {
      await layout({ 'home/CLAUDE.md': '\ufeffHome in another name\n\n\n', 'home/AGENTS.md': 'not this one' });
      const loaded = await loadInstructions({
        homeDir: join(root(), 'home'),
        cwd: join(root(), 'home'),
        fileName: 'CLAUDE.md',
        projectMarkers: [],
      });
      expect(loaded.text).toBe(`${instructionHeader('home', join(root(), 'home/CLAUDE.md'))}\nHome in another name`);
    });
  });

  describe('skipped files', () => {
    it('should skip missing, empty and unreadable files with a reason, never throwing', async () => {
      await layout({
        'home/AGENTS.md': '  \n\n',
        'work/repo/.git': null,
        'work/repo/AGENTS.md': null,
        'work/repo/app/keep': 'x',
      });
      const loaded = await loadInstructions({ homeDir: join(root(), 'home'), cwd: join(root(), 'work/repo/app') });
      expect(loaded.text).toBe('');
      expect(loaded.sources.map((source) => [source.kind, source.status, source.reason])).toEqual([
        ['home', 'empty', 'the file is empty'],
        ['project', 'unreadable', 'not a regular file'],
        ['cwd', 'missing', 'no such file'],
      ]);
    });

    it('should skip a home folder that does not exist', async () => {
      const { cwd } = await standardLayout();
      const loaded = await loadInstructions({ homeDir: join(root(), 'nobody'), cwd });
      expect(loaded.sources[0]).toMatchObject({ kind: 'home', status: 'missing' });
      expect(loaded.text).toContain('Project rule');
    });
  });

  describe('size limit', () => {
    it('should give the room to the most specific files and cut the one that overflows', async () => {
      const cwdText = 'c'.repeat(20_000);
      const projectText = Array.from({ length: 2_000 }, (_, index) => `project line ${index}`).join('\n');
      const { homeDir, cwd } = await standardLayout({ home: 'h'.repeat(5_000), project: projectText, cwd: cwdText });
      const loaded = await loadInstructions({ homeDir, cwd });
      expect(loaded.bytes).toBeLessThanOrEqual(32 * 1024);
      expect(loaded.bytes).toBe(Buffer.byteLength(loaded.text));
      expect(loaded.sources.map((source) => source.status)).toEqual(['dropped', 'loaded', 'loaded']);
      // Working directory first: whole. Project next: its head, ending at a line break.
      expect(loaded.text.endsWith(cwdText)).toBe(true);
      const projectPart = loaded.text.slice(
        loaded.text.indexOf('project line 0'),
        loaded.text.indexOf('\n[... omitted'),
      );
      expect(projectText.startsWith(projectPart)).toBe(true);
      expect(projectText[projectPart.length]).toBe('\n');
      const projectDropped = Buffer.byteLength(projectText) - Buffer.byteLength(projectPart);
      expect(loaded.text).toContain(
        `[... omitted ${projectDropped} bytes of this file to stay within 32768 bytes ...]`,
      );
      expect(loaded.truncated).toEqual([
        { kind: 'home', path: join(homeDir, 'AGENTS.md'), droppedBytes: 5_000 },
        { kind: 'project', path: expect.stringContaining('repo/AGENTS.md'), droppedBytes: projectDropped },
      ]);
      // Merge order is unchanged by the priority.
      expect(loaded.text.indexOf('project line 0')).toBeLessThan(loaded.text.indexOf('cccc'));
    });

    it('should read only the head of a huge file and report the rest as dropped', async () => {
      const { homeDir, cwd } = await standardLayout({ cwd: 'x'.repeat(1_000_000) });
      const loaded = await loadInstructions({ homeDir, cwd, maxBytes: 4_096 });
      expect(loaded.bytes).toBeLessThanOrEqual(4_096);
      const cut = loaded.truncated.find((entry) => entry.kind === 'cwd');
      // The body only: the header names a temporary folder, whose random name can hold an 'x' too.
      const body = loaded.text.slice(loaded.text.indexOf('\n') + 1, loaded.text.lastIndexOf('\n[... omitted'));
      expect(body).toMatch(/^x+$/);
      const kept = body.length;
      expect(cut?.droppedBytes).toBe(1_000_000 - kept);
      expect(kept).toBeGreaterThan(3_500);
    });

    it('should never split a multi-byte character at the cut', async () => {
      for (const unit of ['漢', '😀', 'e\u0301', 'ß']) {
        const { homeDir, cwd } = await standardLayout({ cwd: unit.repeat(40_000) });
        for (const maxBytes of [1_000, 1_001, 1_002, 1_003, 1_004, 4_097]) {
          const loaded = await loadInstructions({ homeDir, cwd, maxBytes });
          expect(loaded.bytes).toBeLessThanOrEqual(maxBytes);
          expect(loaded.text).not.toContain('\ufffd');
          expect(Buffer.from(loaded.text, 'utf8').toString('utf8')).toBe(loaded.text);
          // Whole units only: an accent never left without its letter.
          const body = loaded.text.slice(loaded.text.indexOf('\n') + 1, loaded.text.lastIndexOf('\n[... omitted'));
          expect(body.length % unit.length).toBe(0);
          expect(body).toBe(unit.repeat(body.length / unit.length));
        }
      }
    });
  });
});

describe('findProjectRoot', () => {
  for (const marker of ['.git', 'package.json', 'go.mod', 'pyproject.toml', 'Cargo.toml']) {
    it(`should stop at the first folder holding ${marker}`, async () => {
      await layout({ [`outer/${marker}`]: marker === '.git' ? null : '', 'outer/inner/deep/keep': '' });
      expect(await findProjectRoot(join(root(), 'outer/inner/deep'))).toBe(join(root(), 'outer'));
    });
  }

  it('should prefer the nearest root', async () => {
    await layout({ 'outer/.git': null, 'outer/pkg/package.json': '{}', 'outer/pkg/src/keep': '' });
    expect(await findProjectRoot(join(root(), 'outer/pkg/src'))).toBe(join(root(), 'outer/pkg'));
  });

  it('should return undefined when no folder up to the filesystem root has a marker', async () => {
    await layout({ 'a/b/keep': '' });
    expect(await findProjectRoot(join(root(), 'a/b'), ['.marker-that-does-not-exist-anywhere'])).toBeUndefined();
  });
});
