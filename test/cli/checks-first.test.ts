import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/**
 * A directory no file can be made in: one without write permission, or, for root (whom mode bits do not
 * stop), /sys, which refuses new files to everyone; undefined where neither holds.
 */
function unwritableDir(): string | undefined {
  const candidates = process.getuid?.() === 0 ? ['/sys'] : [chmodded()];
  for (const dir of candidates) {
    try {
      writeFileSync(join(dir, '.mdget-test-probe'), '');
      rmSync(join(dir, '.mdget-test-probe'));
    } catch {
      return dir;
    }
  }
  return undefined;
}

function chmodded(): string {
  const dir = tempDir();
  chmodSync(dir, 0o555);
  return dir;
}

const readOnly = unwritableDir();
const TWO_DAYS = ['ticks', 'AAPL', '--start', '2025-03-13', '--end', '2025-03-15'];

describe('outputs that cannot be written are refused before the first request', () => {
  it.skipIf(readOnly === undefined)('--temp-dir that cannot be written: exit 6 naming the flag', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const out = join(dir, 'out.csv');
      const run = await runMain([...TWO_DAYS, '-o', out, '--temp-dir', readOnly ?? ''], {
        env: emu.env,
        cwd: dir,
      });
      expect([run.code, run.stderr]).toEqual([
        6,
        `mdget: --temp-dir ${readOnly}: cannot write there: permission denied\n`,
      ]);
      expect(emu.requests).toHaveLength(0);
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  it.skipIf(readOnly === undefined)(
    '--report that cannot be written: exit 6 before the download',
    async () => {
      await withEmulator({}, async (emu) => {
        const dir = tempDir();
        const report = join(readOnly ?? '', 'report.json');
        const runs = await Promise.all([
          runMain([...TWO_DAYS, '-o', join(dir, 'out.csv'), '--report', report], { env: emu.env, cwd: dir }),
          runMain(['exchanges', '-o', join(dir, 'x.csv'), '--report', report], { env: emu.env, cwd: dir }),
        ]);
        expect(runs.map((run) => [run.code, run.stderr])).toEqual(
          runs.map(() => [6, `mdget: --report ${report}: cannot write there: permission denied\n`]),
        );
        expect(emu.requests).toHaveLength(0);
        expect(existsSync(join(dir, 'out.csv'))).toBe(false);
      });
    },
  );

  it('a missing --symbols-file says so in words, before any request', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const run = await runMain(['ticks', '--symbols-file', join(dir, 'nope.txt'), '--start', '2025-03-13'], {
        env: emu.env,
        cwd: dir,
      });
      expect([run.code, run.stderr]).toEqual([
        2,
        `mdget: --symbols-file ${join(dir, 'nope.txt')}: cannot read it: no such file or directory\n`,
      ]);
      expect(emu.requests).toHaveLength(0);
    });
  });
});
