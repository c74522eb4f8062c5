import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { NO_PROBES } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// The emulator counts the requests it serves at once (from arrival to the end of the response); each
// waits LATENCY ms first, so requests that may overlap do.
const LATENCY = 60;
const DAYS = ['--start', '2025-03-03', '--end', '2025-03-15', '-q'];

const SHAPES = {
  'one file of many days (read ahead into spools)': { args: ['ticks', 'ESM25', ...DAYS], output: 'one.csv' },
  'a template of four files': {
    args: ['ticks', 'ESM25', 'NQM25', 'CLK25', 'GCJ25', ...DAYS],
    output: 'cc/{symbol}.csv',
  },
  'stdout, many days of two symbols (spooled)': { args: ['ticks', 'ESM25', 'NQM25', ...DAYS], output: '-' },
} as const;

describe('--concurrency is the most requests in flight for the whole run', () => {
  for (const [shape, { args, output }] of Object.entries(SHAPES)) {
    it.each([1, 2, 8])(`${shape}: --concurrency %i`, async (n) => {
      await withEmulator({ ticksPerDay: 2_000, latency: LATENCY }, async (emu) => {
        const run = await runMain([...args, '-o', output, '--concurrency', String(n)], {
          env: { ...emu.env, ...NO_PROBES },
          cwd: tempDir(),
        });
        expect([run.code, run.stderr]).toEqual([0, '']);
        expect(emu.peakInFlight).toBeLessThanOrEqual(n);
        // the limit is used, not only respected: a run of many requests keeps more than one going
        expect(emu.peakInFlight).toBeGreaterThanOrEqual(Math.min(n, 2));
      });
    });
  }

  it('continuations and retries stay within the limit too', async () => {
    const faults = [{ kind: 'status' as const, status: 503, times: 6 }];
    await withEmulator({ ticksPerDay: 2_000, latency: LATENCY, rowCap: 700, faults }, async (emu) => {
      const run = await runMain(
        [
          'ticks',
          'ESM25',
          'NQM25',
          ...DAYS,
          '-o',
          'cc/{symbol}.csv',
          '--concurrency',
          '2',
          '--max-rows',
          '700',
        ],
        { env: emu.env, cwd: tempDir() },
      );
      expect([run.code, run.stderr]).toEqual([0, '']);
      // 2 symbols × 8 weekdays, each cut twice by the 700-row cap, and the six 503s tried again
      expect(emu.requests.length).toBeGreaterThan(40);
      expect(emu.peakInFlight).toBeLessThanOrEqual(2);
    });
  });

  it('the library keeps to it as the CLI does', async () => {
    await withEmulator({ ticksPerDay: 2_000, latency: LATENCY }, async (emu) => {
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      try {
        const query = client.ticks({
          symbols: ['ESM25', 'NQM25', 'CLK25'],
          start: new Date('2025-03-03T00:00:00Z'),
          end: new Date('2025-03-15T00:00:00Z'),
        });
        await query.download(join(tempDir(), '{symbol}.csv'), { concurrency: 2, maxRows: 1_000_000 });
        expect(emu.peakInFlight).toBe(2);
        emu.resetPeak();
        await query.download(new PassThrough().resume(), { concurrency: 3, maxRows: 1_000_000 });
        expect(emu.peakInFlight).toBeLessThanOrEqual(3);
        expect(emu.peakInFlight).toBeGreaterThanOrEqual(2);
      } finally {
        await client.close();
      }
    });
  });

  it('the library sizes its sockets from concurrency: 16 in flight, not the 8 of a default agent', async () => {
    await withEmulator({ ticksPerDay: 2_000, latency: LATENCY }, async (emu) => {
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      try {
        const query = client.ticks({
          symbols: ['ESM25', 'NQM25', 'CLK25', 'GCJ25'],
          start: new Date('2025-03-03T00:00:00Z'),
          end: new Date('2025-03-15T00:00:00Z'),
        });
        await query.download(join(tempDir(), '{symbol}.csv'), { concurrency: 16, maxRows: 1_000_000 });
        expect(emu.peakInFlight).toBeGreaterThan(8);
        expect(emu.peakInFlight).toBeLessThanOrEqual(16);
      } finally {
        await client.close();
      }
    });
  });
});
