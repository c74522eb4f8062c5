import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const UNIT = ['test/unit/**/*.test.ts'];

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/debug-switches.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Many CLI tests mostly wait (latency, retries, rate limits, a pseudo-terminal's frames): one more
    // worker than processors overlaps the waits; on 2 processors the suite took 155 s instead of 219 s.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        // Pure functions and in-memory stages: one module graph per worker, not one per file, saves
        // importing src/ again for each of them (the most part of their time).
        test: { name: 'unit', include: UNIT, isolate: false },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: UNIT },
      },
    ],
  },
});
