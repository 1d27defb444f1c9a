import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Fails the run if a test wrote into the repository (outside dist/): tests write to temporary folders.
    globalSetup: ['test/support/repository-unchanged.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The ADK runner and tiktoken are heavy to load; two workers fit the 2-core machines.
    pool: 'forks',
    maxWorkers: 2,
  },
});
