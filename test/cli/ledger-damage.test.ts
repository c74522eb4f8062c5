import { chmodSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { NO_PROBES } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A damaged ledger (docs/dataset.md#a-damaged-ledger): status, verify and sync say in one line the file,
// what is wrong and the way out, exit 6, and write nothing; moved aside, the next sync rebuilds it.
const DATASET = `root = "data"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL", "MSFT"]
start = "2025-03-03"
end = "now"
path = "eod/{symbol}.csv"

[[series]]
name = "m"
kind = "minutes"
symbols = ["AAPL"]
start = "2025-03-11"
end = "now"
path = "minutes/{symbol}-{date}.csv"
`;
const NOW = '2025-03-13T18:00:00Z';

/** The names, sizes and times of every file under `dir`: what a command that never writes leaves alone. */
function snapshot(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort().map((name) => {
    const info = statSync(join(dir, name));
    return `${name} ${info.size} ${info.mtimeMs}`;
  });
}

const DAMAGE: Record<string, (path: string) => void> = {
  truncated: (path) => writeFileSync(path, readFileSync(path).subarray(0, 3000)),
  'random bytes inside': (path) => {
    const bytes = readFileSync(path);
    for (let i = 100; i < 3100; i++) bytes[i] = (i * 7919) & 0xff;
    writeFileSync(path, bytes);
  },
};

describe('a damaged ledger', () => {
  for (const [name, damage] of Object.entries(DAMAGE))
    it(`${name}: status, verify and sync say so in one line, exit 6, write nothing; moved aside, sync rebuilds it`, async () => {
      await withEmulator({ now: new Date(NOW) }, async (emu) => {
        const dir = tempDir();
        writeFileSync(join(dir, 'mdget.toml'), DATASET);
        const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: NOW };
        expect((await runMain(['sync', '-q'], { cwd: dir, env })).code).toBe(0);
        const ledger = join(dir, 'data/.mdget/ledger.sqlite');
        damage(ledger);
        const before = snapshot(join(dir, 'data'));
        emu.requests.length = 0;
        for (const command of ['status', 'verify', 'sync']) {
          const run = await runMain([command], { cwd: dir, env });
          expect([command, run.code]).toEqual([command, 6]);
          expect(run.stderr).toBe(
            `mdget: ${ledger}: the ledger is damaged (${run.stderr.match(/damaged \((.*?)\)/)?.[1]}): move it aside (mv ${ledger} ${ledger}.damaged): the next sync rebuilds it from the files on disk\n`,
          );
          // status and verify never write; sync opens it to write (SQLite adds its journal files)
          if (command !== 'sync') expect(snapshot(join(dir, 'data'))).toEqual(before);
        }
        expect(emu.requests).toHaveLength(0);
        expect(readdirSync(join(dir, 'data/.mdget')).filter((n) => n.includes('lock'))).toEqual([]);

        renameSync(ledger, `${ledger}.damaged`);
        const rebuilt = await runMain(['sync'], { cwd: dir, env });
        expect(rebuilt.code).toBe(0);
        // the final day files are re-hashed and recorded as found; the growing and provisional fetched
        expect(rebuilt.stderr).toMatch(/sync: 3 files fetched, 0 complete, 2 recorded as found/);
        const verify = await runMain(['verify', '--json'], { cwd: dir, env });
        expect(JSON.parse(verify.stdout)).toMatchObject({ checked: 5, findings: [] });
      });
    });

  it('read-only: status and verify read it without writing a byte beside it (library too)', async () => {
    await withEmulator({ now: new Date(NOW) }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: NOW };
      expect((await runMain(['sync', '-q'], { cwd: dir, env })).code).toBe(0);
      const folder = join(dir, 'data/.mdget');
      chmodSync(join(folder, 'ledger.sqlite'), 0o444);
      chmodSync(folder, 0o555);
      try {
        const before = snapshot(join(dir, 'data'));
        const status = await runMain(['status', '--json'], { cwd: dir, env });
        expect(status.code).toBe(0);
        expect(JSON.parse(status.stdout).complete).toBe(true);
        expect((await runMain(['verify'], { cwd: dir, env })).code).toBe(0);
        const client = createClient({}, { now: () => new Date(NOW) });
        const ref = join(dir, 'mdget.toml');
        expect((await client.status(ref)).complete).toBe(true);
        expect((await client.verify(ref)).checked).toBe(5);
        await client.close();
        expect(snapshot(join(dir, 'data'))).toEqual(before);
      } finally {
        chmodSync(folder, 0o755);
      }
    });
  });

  it('a shard ledger whose creation a full disk cut short (no tables) reads as empty: status, verify, sync', async () => {
    await withEmulator({ now: new Date(NOW) }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: NOW };
      expect((await runMain(['sync', '-q'], { cwd: dir, env })).code).toBe(0);
      const cut = join(dir, 'data/.mdget/ledger.1-of-2.sqlite');
      writeFileSync(cut, '');
      const before = snapshot(join(dir, 'data'));
      for (const command of ['status', 'verify']) {
        const run = await runMain([command], { cwd: dir, env });
        expect([command, run.code]).toEqual([command, 0]);
        expect(run.stderr).toMatch(
          command === 'verify' ? /^mdget: verify: 5 files checked, nothing found\n$/ : /^$/,
        );
      }
      expect(snapshot(join(dir, 'data'))).toEqual(before);
      emu.requests.length = 0;
      expect((await runMain(['sync', '-q', '--shard', '1/2'], { cwd: dir, env })).code).toBe(0);
      const verify = await runMain(['verify', '--json'], { cwd: dir, env });
      expect(JSON.parse(verify.stdout)).toMatchObject({ checked: 5, findings: [] });
    });
  });
});
