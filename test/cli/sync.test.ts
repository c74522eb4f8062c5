import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { NO_PROBES, requestsTo } from '../helpers/cli-env.js';
import { BIN, nodePath, runCli, tempDir } from '../helpers/run-cli.js';
import { openDb } from '../helpers/sqlite.js';
import { DEBUG_ENV, withEmulator } from '../helpers/with-emulator.js';

// A dataset of every kind a night's sync keeps: ticks and minutes a file a day, EOD one growing file a
// symbol, and the reference files. "Now" moves between runs for mdget (MDGET_NOW) and the emulator alike.
const DATASET = `root = "data"

[[series]]
name = "es-ticks"
kind = "ticks"
symbols = ["ESM25"]
start = "2025-03-11"
end = "now"
path = "ticks/{symbol}/{date}.csv.gz"
tz = "UTC"

[[series]]
name = "aapl-minutes"
kind = "minutes"
symbols = ["AAPL"]
start = "2025-03-11"
end = "now"
path = "minutes/{symbol}/{date}.csv"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL", "MSFT"]
start = "2025-01-02"
end = "now"
path = "eod/{symbol}.csv"

[reference]
exchanges = "reference/exchanges.csv"
instruments = { exchanges = ["CME"], path = "reference/instruments-{exchange}.ndjson" }
`;

const DAY1 = '2025-03-13T18:00:00Z';
const DAY2 = '2025-03-14T18:00:00Z';

/** Every file under `dir` (the ledger's folder left out), by path relative to it, with its bytes. */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (name === '.mdget') continue;
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

/** The ledger rows of a dataset directory. */
function ledgerRows(dir: string, name = 'ledger.sqlite'): Record<string, unknown>[] {
  const db = openDb(join(dir, 'data', '.mdget', name));
  try {
    return db.prepare('SELECT * FROM files ORDER BY path').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** The days requested of a page, sorted: requests in flight at once arrive in any order. */
const days = (emu: { requests: { query: Record<string, string> }[] }, page: string) =>
  requestsTo(emu as never, page)
    .map((r) => r.query['start']?.slice(0, 8))
    .sort();

describe('mdget sync', () => {
  it('day 1 fetches the dataset; day 2 only the new day and the provisional one, and 304 for the reference', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: DAY1 };
      const day1 = await runCli(['sync'], { cwd: dir, env });
      expect(day1.stderr).toMatch(/sync: 10 files fetched/);
      expect(day1.code).toBe(0);
      expect(days(emu, 'queryticks.ashx')).toEqual(['20250311', '20250312', '20250313']);
      const files = filesOf(join(dir, 'data'));
      expect([...files.keys()].filter((p) => !p.endsWith('.provisional')).sort()).toEqual([
        'eod/AAPL.csv',
        'eod/MSFT.csv',
        'minutes/AAPL/2025-03-11.csv',
        'minutes/AAPL/2025-03-12.csv',
        'minutes/AAPL/2025-03-13.csv',
        'reference/exchanges.csv',
        'reference/instruments-CME.ndjson',
        'ticks/ESM25/2025-03-11.csv.gz',
        'ticks/ESM25/2025-03-12.csv.gz',
        'ticks/ESM25/2025-03-13.csv.gz',
      ]);
      // each row matches its file: the verify of day 1 is clean
      const rows = ledgerRows(dir);
      expect(rows).toHaveLength(10);
      expect(rows.filter((r) => r['provisional'] === 1).map((r) => r['path'])).toEqual([
        'eod/AAPL.csv',
        'eod/MSFT.csv',
        'minutes/AAPL/2025-03-13.csv',
        'ticks/ESM25/2025-03-13.csv.gz',
      ]);
      expect((await runCli(['verify'], { cwd: dir, env })).code).toBe(0);
      const exchangesBefore = statSync(join(dir, 'data/reference/instruments-CME.ndjson')).mtimeMs;

      emu.requests.length = 0;
      emu.options.now = new Date(DAY2);
      const dry = await runCli(['sync', '--dry-run'], { cwd: dir, env: { ...env, MDGET_NOW: DAY2 } });
      expect(dry.stdout.split('\n').filter((l) => /ticks|minutes|eod/.test(l))).toEqual([
        'provisional\tes-ticks\tticks/ESM25/2025-03-13.csv.gz',
        'missing\tes-ticks\tticks/ESM25/2025-03-14.csv.gz',
        'provisional\taapl-minutes\tminutes/AAPL/2025-03-13.csv',
        'missing\taapl-minutes\tminutes/AAPL/2025-03-14.csv',
        'provisional\tdaily\teod/AAPL.csv',
        'provisional\tdaily\teod/MSFT.csv',
      ]);
      expect(emu.requests).toHaveLength(0);
      const day2 = await runCli(['sync'], { cwd: dir, env: { ...env, MDGET_NOW: DAY2 } });
      expect(day2.code).toBe(0);
      expect(days(emu, 'queryticks.ashx')).toEqual(['20250313', '20250314']);
      expect(days(emu, 'queryminutes.ashx').every((d) => d === '20250313' || d === '20250314')).toBe(true);
      // EOD files grow: each resumed from its last bar, not fetched from 2025-01-02 again
      expect(days(emu, 'queryeod.ashx')).toEqual(['20250312', '20250312']);
      const instruments = requestsTo(emu, 'CME-instruments.json');
      expect(instruments).toHaveLength(1);
      expect(instruments[0]?.headers['if-none-match']).toBeDefined();
      const list = emu.requests.filter((r) => r.path.startsWith('/extras/'));
      expect(list).toHaveLength(1);
      expect(list[0]?.headers['if-modified-since']).toBeDefined();
      expect(day2.stderr).toMatch(/2 reference unchanged \(304\)/);
      expect(statSync(join(dir, 'data/reference/instruments-CME.ndjson')).mtimeMs).toBe(exchangesBefore);
      expect((await runCli(['verify'], { cwd: dir, env })).code).toBe(0);

      // a third sync the same day sends only what is still provisional
      emu.requests.length = 0;
      const again = await runCli(['sync', '--dry-run', '-q'], { cwd: dir, env: { ...env, MDGET_NOW: DAY2 } });
      expect(again.stdout).not.toMatch(/missing|changed/);
    });
  }, 60_000);

  it('a sync killed by SIGKILL is completed by the next, byte-equal to a clean run, every row matching', async () => {
    await withEmulator({ now: new Date(DAY2) }, async (emu) => {
      const toml = DATASET.replace('start = "2025-03-11"', 'start = "2025-02-24"').replace(
        /\[reference\][\s\S]*$/,
        '',
      );
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: DAY2 };
      const clean = tempDir();
      writeFileSync(join(clean, 'mdget.toml'), toml);
      expect(
        (await runCli(['sync', '--concurrency', '8'], { cwd: clean, env, timeoutMs: 60_000 })).code,
      ).toBe(0);

      const killed = tempDir();
      writeFileSync(join(killed, 'mdget.toml'), toml);
      emu.options.latency = 40; // slow enough to be killed halfway
      const child = spawn(BIN, ['sync', '--concurrency', '2'], {
        cwd: killed,
        env: { PATH: nodePath(), NO_COLOR: '1', ...DEBUG_ENV, ...env },
        stdio: 'ignore',
      });
      const ticks = join(killed, 'data/ticks/ESM25');
      for (let i = 0; i < 400 && !(existsSync(ticks) && readdirSync(ticks).length >= 4); i++) await sleep(25);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
      expect(existsSync(join(killed, 'data/.mdget/sync.lock'))).toBe(true);
      const partial = filesOf(join(killed, 'data'));
      expect(partial.size).toBeLessThan(filesOf(join(clean, 'data')).size);

      emu.options.latency = 0;
      const rerun = await runCli(['sync'], { cwd: killed, env, timeoutMs: 60_000 });
      expect(rerun.code).toBe(0);
      const a = filesOf(join(clean, 'data'));
      const b = filesOf(join(killed, 'data'));
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes), path).toBe(true);
      // every file has its row, and every row its file's size and hash
      const rows = ledgerRows(killed);
      expect(rows.map((r) => r['path']).sort()).toEqual(
        [...b.keys()].filter((p) => !p.endsWith('.provisional')).sort(),
      );
      const verify = await runCli(['verify', '--json'], { cwd: killed, env });
      expect(JSON.parse(verify.stdout).findings.filter((f: { kind: string }) => f.kind !== 'gap')).toEqual(
        [],
      );
    });
  }, 120_000);

  it('verify finds a deleted file and a flipped byte (exit 8); sync --repair restores both', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET.replace(/\[reference\][\s\S]*$/, ''));
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: DAY1 };
      expect((await runCli(['sync', '-q'], { cwd: dir, env })).code).toBe(0);
      const before = filesOf(join(dir, 'data'));
      rmSync(join(dir, 'data/minutes/AAPL/2025-03-11.csv'));
      const flipped = join(dir, 'data/ticks/ESM25/2025-03-12.csv.gz');
      const bytes = readFileSync(flipped);
      bytes[100] = (bytes[100] ?? 0) ^ 0xff;
      writeFileSync(flipped, bytes);
      writeFileSync(join(dir, 'data/eod/IBM.csv'), 'stray\n');

      const verify = await runCli(['verify'], { cwd: dir, env });
      expect(verify.code).toBe(8);
      expect(verify.stdout.split('\n').filter(Boolean).sort()).toEqual([
        'changed\tticks/ESM25/2025-03-12.csv.gz\tsame size, different SHA-256 from the ledger',
        'missing\tminutes/AAPL/2025-03-11.csv\trecorded by the ledger, not on disk',
        'unknown\teod/IBM.csv\tmatches the path of series daily; no ledger records it',
      ]);
      // a plain sync hashes a file whose time moved: the flipped byte is found without --repair
      emu.requests.length = 0;
      const dry = await runCli(['sync', '--dry-run', '-q'], { cwd: dir, env });
      expect(dry.stdout).toMatch(/missing\taapl-minutes\tminutes\/AAPL\/2025-03-11.csv/);
      expect(dry.stdout).toMatch(/changed\tes-ticks\tticks\/ESM25\/2025-03-12.csv.gz/);
      const repair = await runCli(['sync', '--repair', '-q'], { cwd: dir, env });
      expect(repair.code).toBe(0);
      rmSync(join(dir, 'data/eod/IBM.csv'));
      const after = filesOf(join(dir, 'data'));
      for (const [path, b] of before) expect(after.get(path)?.equals(b), path).toBe(true);
      const clean = await runCli(['verify'], { cwd: dir, env });
      expect(clean.code).toBe(0);
      expect(clean.stderr).toMatch(/nothing found/);
    });
  }, 60_000);

  it('a weekday holiday with no rows between days with rows is a suspicious gap; a weekend is not', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const dir = tempDir();
      // 2025-02-17 is Presidents' Day: the emulator's equities have no minutes that day
      writeFileSync(
        join(dir, 'mdget.toml'),
        `[[series]]
name = "m"
kind = "minutes"
symbols = ["AAPL"]
start = "2025-02-13"
end = "2025-02-20"
path = "m/{symbol}-{date}.csv"
`,
      );
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: DAY1 };
      expect((await runCli(['sync', '-q'], { cwd: dir, env })).code).toBe(0);
      const verify = await runCli(['verify'], { cwd: dir, env });
      expect(verify.code).toBe(8);
      expect(verify.stdout).toBe(
        'gap\tm/AAPL-2025-02-17.csv\tno rows on 2025-02-17, a weekday between days with rows\n',
      );
    });
  }, 60_000);

  it('two syncs at once: the second exits 6 naming the first, or waits with --wait; nothing corrupt', async () => {
    await withEmulator({ now: new Date(DAY1), latency: 150 }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET.replace(/\[reference\][\s\S]*$/, ''));
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: DAY1 };
      const first = runCli(['sync', '-q', '--concurrency', '1'], { cwd: dir, env, timeoutMs: 60_000 });
      const lock = join(dir, 'data/.mdget/sync.lock');
      for (let i = 0; i < 200 && !existsSync(lock); i++) await sleep(20);
      const second = await runCli(['sync'], { cwd: dir, env });
      expect(second.code).toBe(6);
      const pid = JSON.parse(readFileSync(lock, 'utf8')).pid as number;
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
      expect(second.stderr).toContain(`process ${pid}`);
      const waiting = runCli(['sync', '-q', '--wait', '60s'], { cwd: dir, env, timeoutMs: 60_000 });
      expect((await first).code).toBe(0);
      const waited = await waiting;
      expect(waited.code).toBe(0);
      expect((await runCli(['verify'], { cwd: dir, env })).code).toBe(0);
      expect(existsSync(lock)).toBe(false);
    });
  }, 90_000);

  it('--shard 1/3..3/3 in three directories: their union is an unsharded sync; status over their ledgers is complete', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: DAY1 };
      const whole = tempDir();
      writeFileSync(join(whole, 'mdget.toml'), DATASET);
      expect((await runCli(['sync', '-q'], { cwd: whole, env })).code).toBe(0);
      const merged = tempDir();
      writeFileSync(join(merged, 'mdget.toml'), DATASET);
      const union = new Map<string, Buffer>();
      for (const i of [1, 2, 3]) {
        const dir = tempDir();
        writeFileSync(join(dir, 'mdget.toml'), DATASET);
        const run = await runCli(['sync', '-q', '--shard', `${i}/3`], { cwd: dir, env });
        expect(run.code).toBe(0);
        const files = filesOf(join(dir, 'data'));
        for (const [path, bytes] of files) {
          expect(union.has(path), `${path} in two shards`).toBe(false);
          union.set(path, bytes);
        }
        expect(existsSync(join(dir, `data/.mdget/ledger.${i}-of-3.sqlite`))).toBe(true);
        // what a CI job's artifact upload and download do: every shard's files into one tree
        for (const [path, bytes] of filesOf(join(dir, 'data'))) {
          mkdirSync(join(merged, 'data', path, '..'), { recursive: true });
          writeFileSync(join(merged, 'data', path), bytes);
        }
        mkdirSync(join(merged, 'data/.mdget'), { recursive: true });
        writeFileSync(
          join(merged, `data/.mdget/ledger.${i}-of-3.sqlite`),
          readFileSync(join(dir, `data/.mdget/ledger.${i}-of-3.sqlite`)),
        );
      }
      const expected = filesOf(join(whole, 'data'));
      expect([...union.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, bytes] of expected) expect(union.get(path)?.equals(bytes), path).toBe(true);
      const status = await runCli(['status', '--json'], { cwd: merged, env });
      expect(status.code).toBe(0);
      const report = JSON.parse(status.stdout);
      expect(report.complete).toBe(true);
      expect(report.ledgers).toHaveLength(3);
      expect(report.series.map((s: { planned: number; missing: number }) => [s.planned, s.missing])).toEqual([
        [3, 0],
        [3, 0],
        [2, 0],
      ]);
      expect((await runCli(['verify'], { cwd: merged, env })).code).toBe(0);
    });
  }, 90_000);
});
