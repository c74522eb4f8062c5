import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { flagNames } from '../../src/cli/flag-names.js';
import { createDispatcher } from '../../src/core/http/agent.js';
import { DEFAULT_RETRY } from '../../src/core/http/retry.js';
import { resolve } from '../../src/core/plan/resolve.js';
import { runJob } from '../../src/core/run/run-job.js';
import type { Emulator } from '../../src/emulator/index.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** A batch of one-day tick files: every response of the emulator's days is under the probe floor. */
const SYMBOLS = ['ESM25', 'NQM25', 'AAPL', 'MSFT'];
const DAYS = ['--start', '2025-03-10', '--end', '2025-03-13'];
const PLANNED = SYMBOLS.length * 3;

/** Resolves once `count` requests have reached the emulator (whatever happened to their answers). */
function arrivals(emu: Emulator, count: number): Promise<void> {
  return new Promise((done) => {
    emu.hooks.beforeAnswer = () => {
      if (emu.requests.length >= count) done();
    };
  });
}

describe('a batch keeps its requests going and sends only what the data needs', () => {
  it('no response reaches a cap: sent = planned, no probe, counted in --report; in flight ≤ --concurrency', async () => {
    await withEmulator({ latency: 20 }, async (emu) => {
      const dir = tempDir();
      const run = await runMain(
        [
          'ticks',
          ...SYMBOLS,
          ...DAYS,
          '-o',
          '{symbol}/{date}.csv',
          '--concurrency',
          '3',
          '--report',
          'r.json',
          '-q',
        ],
        { env: emu.env, cwd: dir },
      );
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(emu.requests).toHaveLength(PLANNED);
      expect(emu.peakInFlight).toBeLessThanOrEqual(3);
      const { totals } = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
        totals: Record<string, number>;
      };
      expect(totals).toMatchObject({ planned: PLANNED, requests: PLANNED, continuations: 0, probes: 0 });
    });
  });

  it('a commit that does not end holds back no request: every request is sent while the first commits wait', async () => {
    await withEmulator({ latency: 10 }, async (emu) => {
      const dir = tempDir();
      const dispatcher = createDispatcher({ timeoutMs: 30_000 });
      const all = arrivals(emu, PLANNED);
      const committed: string[] = [];
      const config = { username: 'demo', password: 'demo', historicalUrl: emu.urls.historical };
      try {
        const job = resolve(
          'ticks',
          {
            symbols: SYMBOLS,
            start: new Date('2025-03-10T00:00:00Z'),
            end: new Date('2025-03-13T00:00:00Z'),
            output: join(dir, '{symbol}/{date}.csv'),
            concurrency: 2,
          },
          {
            config,
            now: new Date(),
            names: flagNames,
          },
        );
        expect(job.requests).toHaveLength(PLANNED);
        const result = await runJob(job, {
          config,
          dispatcher,
          retry: DEFAULT_RETRY,
          stdout: new PassThrough(),
          names: flagNames,
          // a commit's last step waits for the last request to arrive: a run that awaited its commits before
          // sending the next request would never get there (the test would time out)
          onCommitted: async ({ path }) => {
            await all;
            committed.push(path);
          },
        });
        expect(result.failure).toBeUndefined();
        expect(result.counts).toMatchObject({ sent: PLANNED, probes: 0 });
        expect(result.counts.peakInFlight).toBeLessThanOrEqual(2);
        expect(committed).toHaveLength(PLANNED);
        expect(committed.every((path) => existsSync(path))).toBe(true);
      } finally {
        await dispatcher.destroy();
      }
    });
  });
});
