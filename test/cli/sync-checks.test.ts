import { readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { NO_PROBES, requestsTo } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// What sync checks before it builds on a file (docs/dataset.md#what-sync-checks): a growing file is
// hashed before it is extended, a skipped file whose time moved is hashed, a file made with other
// settings is written whole, and a dataset whose ledger was deleted is made whole again.
const DATASET = `root = "data"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL", "MSFT"]
start = "2025-01-02"
end = "now"
path = "eod/{symbol}.csv"

[[series]]
name = "m"
kind = "minutes"
symbols = ["AAPL"]
start = "2025-03-11"
end = "now"
path = "minutes/{symbol}.csv"

[[series]]
name = "ev"
kind = "events"
symbols = ["AAPL", "MSFT"]
start = "2020-01-01"
end = "now"
path = "events/{symbol}.csv"
`;

const DAY1 = '2025-03-13T18:00:00Z';
const DAY2 = '2025-03-14T18:00:00Z';

/** Every file under `dir` but the ledger's folder and the provisional markers, with its bytes. */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (name === '.mdget' || name.endsWith('.provisional')) continue;
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

/** A dataset synced once at DAY1 in a fresh directory. */
async function syncedAt(env: Record<string, string>, toml = DATASET): Promise<string> {
  const dir = tempDir();
  writeFileSync(join(dir, 'mdget.toml'), toml);
  const run = await runMain(['sync', '-q'], { cwd: dir, env: { ...env, MDGET_NOW: DAY1 } });
  expect([run.code, run.stderr]).toEqual([0, '']);
  return dir;
}

/** Expects `dir`'s files to equal `clean`'s byte for byte. */
function expectSame(dir: string, clean: string): void {
  const a = filesOf(join(clean, 'data'));
  const b = filesOf(join(dir, 'data'));
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes), path).toBe(true);
}

/** Changes one digit of the first data row of a csv file, keeping its size. */
function flipDigit(path: string): void {
  const text = readFileSync(path, 'latin1');
  const at = text.indexOf('\n') + text.slice(text.indexOf('\n')).search(/[0-8],/);
  writeFileSync(path, text.slice(0, at) + String(Number(text[at]) + 1) + text.slice(at + 1), 'latin1');
}

describe('what sync checks before it builds on a file', () => {
  it('a growing file with a flipped digit is written whole, not extended, and the summary says so', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const env = { ...emu.env, ...NO_PROBES };
      const dir = await syncedAt(env);
      const clean = await syncedAt(env);
      emu.options.now = new Date(DAY2);
      expect((await runMain(['sync', '-q'], { cwd: clean, env: { ...env, MDGET_NOW: DAY2 } })).code).toBe(0);

      flipDigit(join(dir, 'data/minutes/AAPL.csv'));
      const dry = await runMain(['sync', '--dry-run', '-q'], { cwd: dir, env: { ...env, MDGET_NOW: DAY2 } });
      expect(dry.stdout).toContain('changed\tm\tminutes/AAPL.csv\n');
      emu.requests.length = 0;
      const run = await runMain(['sync'], { cwd: dir, env: { ...env, MDGET_NOW: DAY2 } });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        'mdget: minutes/AAPL.csv: same size, another SHA-256 than its ledger row: written whole\n',
      );
      // written whole: its first day asked for again, not only the day after its last rows
      expect(requestsTo(emu, 'queryminutes.ashx').some((r) => r.query['start']?.startsWith('20250311'))).toBe(
        true,
      );
      expectSame(dir, clean);
      expect((await runMain(['verify', '-q'], { cwd: dir, env })).code).toBe(0);
    });
  }, 60_000);

  it('a complete file with a flipped digit: a plain sync finds it (its time moved) and writes it whole', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: DAY1 };
      const toml = DATASET.replaceAll('end = "now"', 'end = "2025-03-12"');
      const dir = await syncedAt(env, toml);
      const clean = await syncedAt(env, toml);
      const file = join(dir, 'data/eod/MSFT.csv');
      // a touch alone is not a change: hashed once, the same bytes, nothing fetched
      const later = new Date(Date.now() + 5_000);
      utimesSync(file, later, later);
      emu.requests.length = 0;
      const touched = await runMain(['sync', '--dry-run', '-q'], { cwd: dir, env });
      expect(touched.stdout).toBe('');
      flipDigit(file);
      const run = await runMain(['sync'], { cwd: dir, env });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/eod\/MSFT.csv: same size, another SHA-256/);
      expect(run.stderr).toMatch(/sync: 1 files fetched/);
      expectSame(dir, clean);
    });
  }, 60_000);

  it('a series whose settings changed is written whole in the new form, never appended to', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const env = { ...emu.env, ...NO_PROBES };
      const dir = await syncedAt(env);
      emu.options.now = new Date(DAY2);
      const changed = DATASET.replace(
        'path = "minutes/{symbol}.csv"',
        'path = "minutes/{symbol}.csv"\ntz = "UTC"',
      );
      writeFileSync(join(dir, 'mdget.toml'), changed);
      const clean = tempDir();
      writeFileSync(join(clean, 'mdget.toml'), changed);
      const at2 = { ...env, MDGET_NOW: DAY2 };
      expect((await runMain(['sync', '-q'], { cwd: clean, env: at2 })).code).toBe(0);
      const dry = await runMain(['sync', '--dry-run', '-q'], { cwd: dir, env: at2 });
      expect(dry.stdout).toContain('settings\tm\tminutes/AAPL.csv\n');
      const run = await runMain(['sync'], { cwd: dir, env: at2 });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        'mdget: minutes/AAPL.csv: made with other settings (timeZone - → "utc"): written whole\n',
      );
      expectSame(dir, clean);
    });
  }, 60_000);

  it('rm -rf .mdget: the next sync writes growing files and event files whole and verify knows them', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: DAY1 };
      const dir = await syncedAt(env);
      const clean = await syncedAt(env);
      rmSync(join(dir, 'data/.mdget'), { recursive: true });
      emu.requests.length = 0;
      const dry = await runMain(['sync', '--dry-run', '-q'], { cwd: dir, env });
      expect(dry.stdout.split('\n').filter(Boolean).sort()).toEqual([
        'unrecorded\tdaily\teod/AAPL.csv',
        'unrecorded\tdaily\teod/MSFT.csv',
        'unrecorded\tev\tevents/AAPL.csv',
        'unrecorded\tev\tevents/MSFT.csv',
        'unrecorded\tm\tminutes/AAPL.csv',
      ]);
      const run = await runMain(['sync'], { cwd: dir, env });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/sync: 5 files fetched/);
      expect(requestsTo(emu, 'queryevents.ashx')).toHaveLength(2);
      expectSame(dir, clean);
      const verify = await runMain(['verify', '--json'], { cwd: dir, env });
      expect(JSON.parse(verify.stdout)).toMatchObject({ checked: 5, findings: [] });
      // and again: nothing left to do but what is provisional
      const again = await runMain(['sync', '--dry-run', '-q'], { cwd: dir, env });
      expect(again.stdout).not.toMatch(/unrecorded|missing|changed/);
    });
  }, 60_000);

  it('the library: a changed growing file is a fetch with reason changed, and the result counts what was written', async () => {
    await withEmulator({ now: new Date(DAY1) }, async (emu) => {
      const env = { ...emu.env, ...NO_PROBES };
      const dir = await syncedAt(env);
      flipDigit(join(dir, 'data/eod/AAPL.csv'));
      const now = new Date(DAY2);
      emu.options.now = now;
      const client = createClient(
        {
          username: emu.options.username,
          password: emu.options.password,
          historicalUrl: emu.urls.historical,
        },
        { now: () => now, listeners: { onNote: (m: string) => notes.push(m) } },
      );
      const notes: string[] = [];
      try {
        const ref = join(dir, 'mdget.toml');
        const result = await client.sync(ref);
        expect(notes).toContain(
          'eod/AAPL.csv: same size, another SHA-256 than its ledger row: written whole',
        );
        expect(result.fetches.find((f) => f.path.endsWith('eod/AAPL.csv'))?.reason).toBe('changed');
        expect(result.written).toBe(result.fetches.length);
        expect((await client.verify(ref)).findings.filter((f) => f.kind !== 'gap')).toEqual([]);
      } finally {
        await client.close();
      }
    });
  }, 60_000);
});
