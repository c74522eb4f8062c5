import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/debug-switches.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Many CLI tests mostly wait (latency, retries, rate limits, a pseudo-terminal's frames): one more
    // worker than processors overlaps the waits; on 2 processors the suite took 155 s instead of 219 s.
    maxWorkers: availableParallelism() + 1,
  },
});
