import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_PROBES } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { openDb } from '../helpers/sqlite.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A server that ignores `start` answers a day's tick request with another day: a provisional day that had
// rows is not replaced by the empty answer; the file stays as it was, its row provisional, the sync fails
// that window (exit 7) and says so; once the server is right again one sync completes it.
const DATASET = `root = "data"

[[series]]
name = "es"
kind = "ticks"
symbols = ["ESM25"]
start = "2025-03-12"
end = "now"
path = "ticks/{symbol}/{date}.csv"
`;
const DAY1 = '2025-03-13T18:00:00Z';
const DAY2 = '2025-03-14T18:00:00Z';
const FILE = 'ticks/ESM25/2025-03-13.csv';

function rowOf(dir: string, path: string): Record<string, unknown> | undefined {
  const db = openDb(join(dir, 'data/.mdget/ledger.sqlite'));
  try {
    return db.prepare('SELECT * FROM files WHERE path = ?').get(path) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

describe('sync against a server that ignores start', () => {
  it('a provisional day with rows is kept, not replaced by an empty answer; exit 7 naming it', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const env = { ...emu.env, ...NO_PROBES };
      expect((await runMain(['sync', '-q'], { cwd: dir, env: { ...env, MDGET_NOW: DAY1 } })).code).toBe(0);
      const before = readFileSync(join(dir, 'data', FILE));
      const row = rowOf(dir, FILE);
      expect(row).toMatchObject({ provisional: 1 });
      expect(Number(row?.['rows'])).toBeGreaterThan(0);

      emu.options.now = new Date(DAY2);
      emu.options.ignoreStart = true;
      const run = await runMain(['sync'], { cwd: dir, env: { ...env, MDGET_NOW: DAY2 } });
      expect(run.code).toBe(7);
      expect(run.stderr).toContain(`mdget: ${FILE}: `);
      expect(readFileSync(join(dir, 'data', FILE)).equals(before)).toBe(true);
      expect(rowOf(dir, FILE)).toEqual(row);
      const status = JSON.parse(
        (await runMain(['status', '--json'], { cwd: dir, env: { ...env, MDGET_NOW: DAY2 } })).stdout,
      );
      expect(status.lastSync.failures.map((f: { path: string }) => f.path)).toContain(FILE);

      emu.options.ignoreStart = false;
      const fixed = await runMain(['sync', '-q'], { cwd: dir, env: { ...env, MDGET_NOW: DAY2 } });
      expect([fixed.code, fixed.stderr]).toEqual([0, '']);
      expect(rowOf(dir, FILE)).toMatchObject({ provisional: 0 });
      expect((await runMain(['verify', '-q'], { cwd: dir, env })).code).toBe(0);
    });
  }, 60_000);
});
