import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_PROBES } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { canMount, mounted } from '../helpers/tmpfs.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A disk that fills during a sync (docs/dataset.md#exit-status): exit 6 in one line, the failure in the
// ledger, no lock, marker or temporary file left; once there is room, one sync makes the dataset whole.
// A small tmpfs is the full disk: where mounting is refused (not root), the test is skipped.
const DATASET = `root = "data"

[[series]]
name = "es"
kind = "ticks"
symbols = ["ESM25"]
start = "2025-03-10"
end = "now"
path = "ticks/{symbol}/{date}.csv"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL", "MSFT"]
start = "2025-01-02"
end = "now"
path = "eod/{symbol}.csv"
`;
const NOW = '2025-03-13T18:00:00Z';

/** Every file under `dir` but the ledger's folder, with its bytes. */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (!name.startsWith('.mdget') && statSync(path).isFile())
      files.set(relative(dir, path), readFileSync(path));
  }
  return files;
}

describe('a disk that fills during a sync', () => {
  it.skipIf(!canMount)(
    'exit 6 in one line, nothing left behind; after room is made one sync restores it',
    async () => {
      await withEmulator({ now: new Date(NOW) }, async (emu) => {
        const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: NOW };
        const clean = tempDir();
        writeFileSync(join(clean, 'mdget.toml'), DATASET);
        expect((await runMain(['sync', '-q'], { cwd: clean, env })).code).toBe(0);

        const dir = tempDir();
        writeFileSync(join(dir, 'mdget.toml'), DATASET);
        mkdirSync(join(dir, 'data'));
        expect(mounted(join(dir, 'data'), '200k')).toBe(true);
        try {
          const full = await runMain(['sync', '--concurrency', '1'], { cwd: dir, env });
          expect(full.code).toBe(6);
          expect(full.stderr).toMatch(/^mdget: cannot write \S+: disk full\n$/);
          const left = readdirSync(join(dir, 'data'), { recursive: true }) as string[];
          expect(left.filter((n) => /\.part$|\.tmp$|\.lock$|-journal$/.test(n))).toEqual([]);
          // a marker is never left without its file
          for (const marker of left.filter((n) => n.endsWith('.provisional')))
            expect(left).toContain(marker.slice(0, -'.provisional'.length));
          const status = await runMain(['status', '--json'], { cwd: dir, env });
          expect(JSON.parse(status.stdout).lastSync).toMatchObject({ outcome: 'MDGET_IO' });

          execFileSync('mount', ['-o', 'remount,size=4m', join(dir, 'data')]);
          const again = await runMain(['sync', '-q'], { cwd: dir, env });
          expect([again.code, again.stderr]).toEqual([0, '']);
          const a = filesOf(join(clean, 'data'));
          const b = filesOf(join(dir, 'data'));
          expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
          for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes), path).toBe(true);
          expect((await runMain(['verify', '-q'], { cwd: dir, env })).code).toBe(0);
        } finally {
          execFileSync('umount', [join(dir, 'data')]);
        }
      });
    },
    60_000,
  );
});
