import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useTempFolder } from '../../test/support/temp-folder.js';
import { createInstructionsCache } from './load-once.js';

const folder = useTempFolder('agents-md-cache-', { 'AGENTS.md': 'version 1' });

/** The one folder is home and working directory; no project marker is looked for. */
const options = () => ({ homeDir: join(folder(), 'no-home'), cwd: folder(), projectMarkers: [] });

describe('createInstructionsCache', () => {
  describe('caching', () => {
    it('should not keep a load that failed: the next get() reads again', async () => {
      let reads = 0;
      // An option that throws on the first read stands for an unexpected failure inside the loader.
      const flaky = {
        ...options(),
        get fileName(): string {
          reads++;
          if (reads === 1) throw new Error('transient');
          return 'AGENTS.md';
        },
      };
      const cache = createInstructionsCache(flaky);
      await expect(cache.get()).rejects.toThrow('transient');
      expect((await cache.get()).text).toContain('version 1');
    });

    it('should read the files once, and again only on reload', async () => {
      const onLoad = vi.fn();
      const cache = createInstructionsCache({ ...options(), onLoad });
      const [first, second] = await Promise.all([cache.get(), cache.get()]);
      expect(first).toBe(second);
      await writeFile(join(folder(), 'AGENTS.md'), 'version 2');
      expect((await cache.get()).text).toContain('version 1');
      expect((await cache.reload()).text).toContain('version 2');
      expect((await cache.get()).text).toContain('version 2');
      expect(onLoad).toHaveBeenCalledTimes(2);
    });

    it('should read the files on every call with cache: false', async () => {
      const cache = createInstructionsCache({ ...options(), cache: false });
      expect((await cache.get()).text).toContain('version 1');
      await writeFile(join(folder(), 'AGENTS.md'), 'version 2');
      expect((await cache.get()).text).toContain('version 2');
    });
  });

  describe('failures', () => {
    it('should keep the instructions when onLoad throws, and report it', async () => {
      const logger = { error: vi.fn() };
      const cache = createInstructionsCache({
        ...options(),
        logger,
        onLoad: () => {
          throw new Error('listener down');
        },
      });
      expect((await cache.get()).text).toContain('version 1');
      expect((await cache.get()).text).toContain('version 1');
      expect(logger.error).toHaveBeenCalledTimes(1);
    });
  });
});
