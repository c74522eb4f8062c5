import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, nodePath, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const run = promisify(execFile);
const TIME = '/usr/bin/time';

/**
 * Memory stays flat on the path users take. A day of ~5.5 million ticks (~215 MB of csv) comes
 * gzip-compressed and chunked, as a real server sends it when asked; the child's peak RSS is measured by
 * GNU time. Before the fix the same download peaked at 2 GB; bench/README.md#memory has the figures.
 */
describe.runIf(existsSync(TIME))('memory on the default path (gzip, chunked)', () => {
  it('a 200+ MB gzip download keeps the child under 120 MB, the memory line of docs/internals.md', {
    timeout: 120_000,
  }, async () => {
    await withEmulator({ ticksPerDay: 5_500_000 }, async (emu) => {
      const dir = tempDir();
      const file = join(dir, 'day.csv');
      const { stderr } = await run(
        TIME,
        [
          '-f',
          '%M',
          BIN,
          'ticks',
          'ESM25',
          '--start',
          '2025-03-13',
          '-o',
          file,
          '-q',
          '--max-rows',
          '100000000',
        ],
        { env: { PATH: nodePath(), ...emu.env }, maxBuffer: 1 << 20 },
      );
      const peakMiB = Number(stderr.trim().split('\n').at(-1)) / 1024;
      expect(statSync(file).size).toBeGreaterThan(200_000_000);
      expect(emu.requests[0]?.headers['accept-encoding']).toContain('gzip');
      expect(readFileSync(file).subarray(0, 40).toString()).toMatch(/^symbol,time,/);
      // 76 MiB on Node 20 and 91 MiB on Node 24 here, since the body is decoded into reused buffers
      expect(peakMiB).toBeLessThan(120_000_000 / 2 ** 20);
    });
  });
});
