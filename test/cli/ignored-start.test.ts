import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestsTo } from '../helpers/cli-env.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A server that ignores `start` (or rounds it away) answers a continuation from before where it starts.
// mdget must never write those rows twice, end a window a continuation does not move, and fail (exit 4)
// when a full response keeps coming back from before its start.
const CAP = 40;
const COMMANDS = {
  // the emulator answers a tick request without start with the day of its end: an end inside the day
  ticks: {
    args: ['ticks', 'ESM25', '--start', '2025-03-13', '--end', '2025-03-13T12:00'],
    page: 'queryticks.ashx',
  },
  minutes: {
    args: ['minutes', 'ESM25', '--start', '2025-03-13T09:00', '--end', '2025-03-13T12:00'],
    page: 'queryminutes.ashx',
  },
  eod: { args: ['eod', 'AAPL', '--start', '2024-01-02', '--end', '2025-01-02'], page: 'queryeod.ashx' },
} as const;

/** The data lines of an output: csv without its header, raw with its line ends. */
function rowsOf(file: string, format: 'csv' | 'raw'): string[] {
  const lines = readFileSync(file, 'latin1')
    .split(/\r?\n/)
    .filter((line) => line !== '');
  return format === 'csv' ? lines.slice(1) : lines;
}

describe('a server that ignores start', () => {
  for (const [name, { args, page }] of Object.entries(COMMANDS)) {
    for (const format of ['csv', 'raw'] as const) {
      it(`${name} --format ${format}: no row twice; a probe that repeats ends the window, exit 0`, async () => {
        await withEmulator({ ignoreStart: true, rowCap: CAP }, async (emu) => {
          const dir = tempDir();
          const run = await runCli([...args, '--format', format, '-o', 'out', '-q'], {
            env: emu.env,
            cwd: dir,
          });
          expect([run.code, run.stderr]).toEqual([0, '']);
          const rows = rowsOf(join(dir, 'out'), format);
          // the service's first CAP rows (a tick second may run past the cap), each once
          expect(rows.length).toBeGreaterThanOrEqual(CAP);
          expect(new Set(rows).size).toBe(rows.length);
          // the window's request and the probe that found nothing past where it started
          expect(requestsTo(emu, page)).toHaveLength(2);
        });
      });

      it(`${name} --format ${format}: a full continuation from before its start fails after three tries, exit 4`, async () => {
        await withEmulator({ ignoreStart: true, rowCap: CAP }, async (emu) => {
          const dir = tempDir();
          const fail = ['--format', format, '-o', 'out', '--max-rows', String(CAP), '--concurrency', '1'];
          const run = await runCli([...args, ...fail], {
            env: emu.env,
            cwd: dir,
          });
          expect(run.code).toBe(4);
          expect(run.stderr).toMatch(/keeps answering .* from before its start .*3 tries/);
          expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
          expect(existsSync(join(dir, 'out'))).toBe(false);
          // the window's request, then the continuation three times
          expect(requestsTo(emu, page)).toHaveLength(4);
        });
      });
    }
  }

  it('a server that honours start gets the same rows, completed by continuations', async () => {
    await withEmulator({ rowCap: CAP }, async (emu) => {
      const dir = tempDir();
      const run = await runCli([...COMMANDS.minutes.args, '-o', 'out.csv', '--max-rows', String(CAP)], {
        env: emu.env,
        cwd: dir,
      });
      expect(run.code).toBe(0);
      const rows = rowsOf(join(dir, 'out.csv'), 'csv');
      expect(rows).toHaveLength(180); // every minute of 09:00-12:00
      expect(new Set(rows).size).toBe(180);
    });
  });
});
