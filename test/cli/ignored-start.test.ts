import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestsTo } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A server that ignores `start` (or rounds it away) answers from before where a request starts. mdget
// never writes a row outside the window asked for, and a response of such rows only is the service
// failing (exit 4): the window's own request at once, a continuation after three tries.
const CAP = 40;
const COMMANDS = {
  // the emulator answers a tick request without start with the day of its end: an end inside the day
  ticks: {
    args: ['ticks', 'ESM25', '--start', '2025-03-13T09:00', '--end', '2025-03-13T12:00'],
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
      it(`${name} --format ${format}: a response of rows before the start only fails at once, exit 4`, async () => {
        await withEmulator({ ignoreStart: true, rowCap: CAP }, async (emu) => {
          const dir = tempDir();
          const run = await runMain([...args, '--format', format, '-o', join(dir, 'out')], {
            env: emu.env,
            cwd: dir,
          });
          expect(run.code).toBe(4);
          expect(run.stderr).toMatch(/rows from before its start \(.+\) only: it ignores start/);
          expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
          expect(existsSync(join(dir, 'out'))).toBe(false);
          expect(requestsTo(emu, page)).toHaveLength(1);
        });
      });
    }
  }

  it('a full continuation that repeats rows from before its start fails after three tries, exit 4', async () => {
    // the window starts where the data does: its own response is inside it, its continuation is not
    await withEmulator({ ignoreStart: true, rowCap: CAP }, async (emu) => {
      const dir = tempDir();
      const args = ['eod', 'AAPL', '--start', '2020-01-01', '--end', '2021-01-01', '--window', '400d'];
      const run = await runMain([...args, '-o', join(dir, 'e.csv'), '--max-rows', String(CAP)], {
        env: emu.env,
        cwd: dir,
      });
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/keeps answering .* from before its start .*3 tries/);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(existsSync(join(dir, 'e.csv'))).toBe(false);
      // the window's request, then the continuation three times
      expect(requestsTo(emu, 'queryeod.ashx')).toHaveLength(4);
    });
  });

  const SAME = {
    eod: ['eod', 'AAPL', '--start', '2025-01-01', '--end', '2025-03-01'],
    events: ['events', 'AAPL', 'MSFT', '--start', '2024-01-01', '--end', '2024-06-01'],
  };
  for (const [name, args] of Object.entries(SAME)) {
    it(`${name}: rows before the start are dropped; the file is a correct server's, byte for byte`, async () => {
      const honest = await withEmulator({}, async (emu) => {
        const dir = tempDir();
        const run = await runMain([...args, '-o', join(dir, 'x.csv')], { env: emu.env, cwd: dir });
        expect(run.code).toBe(0);
        return readFileSync(join(dir, 'x.csv'));
      });
      await withEmulator({ ignoreStart: true }, async (emu) => {
        const dir = tempDir();
        const run = await runMain([...args, '-o', join(dir, 'x.csv')], { env: emu.env, cwd: dir });
        expect([run.code, run.stderr]).toEqual([0, '']);
        const written = readFileSync(join(dir, 'x.csv'));
        expect(written.equals(honest)).toBe(true);
        const dates = rowsOf(join(dir, 'x.csv'), 'csv').map((row) => row.split(',')[1] ?? '');
        expect(dates.length).toBeGreaterThan(0);
        expect(dates.every((date) => date >= args[args.length - 3]! && date < args[args.length - 1]!)).toBe(
          true,
        );
      });
    });
  }

  it('events: an answer with events before the start only is the service failing, exit 4', async () => {
    await withEmulator({ ignoreStart: true }, async (emu) => {
      const dir = tempDir();
      const args = [
        'events',
        'AAPL',
        '--start',
        '2025-01-02',
        '--end',
        '2025-01-03',
        '-o',
        join(dir, 'x.csv'),
      ];
      const run = await runMain(args, { env: emu.env, cwd: dir });
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/rows from before its start \(2025-01-02\) only/);
      expect(existsSync(join(dir, 'x.csv'))).toBe(false);
    });
  });

  it('the library: download() rejects with MDGET_SERVICE and writes nothing', async () => {
    await withEmulator({ ignoreStart: true, rowCap: CAP }, async (emu) => {
      const { createClient } = await import('../../src/index.js');
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      const file = join(tempDir(), 'e.csv');
      try {
        await expect(
          client.eod({ symbols: 'AAPL', start: '2024-01-02', end: '2025-01-02' }).download(file),
        ).rejects.toMatchObject({ name: 'MdgetError', code: 'MDGET_SERVICE' });
        expect(existsSync(file)).toBe(false);
      } finally {
        await client.close();
      }
    });
  });

  it('a server that honours start gets the same rows, completed by continuations', async () => {
    await withEmulator({ rowCap: CAP }, async (emu) => {
      const dir = tempDir();
      const run = await runMain(
        [...COMMANDS.minutes.args, '-o', join(dir, 'out.csv'), '--max-rows', String(CAP)],
        {
          env: emu.env,
          cwd: dir,
        },
      );
      expect(run.code).toBe(0);
      const rows = rowsOf(join(dir, 'out.csv'), 'csv');
      expect(rows).toHaveLength(180); // every minute of 09:00-12:00
      expect(new Set(rows).size).toBe(180);
    });
  });
});
