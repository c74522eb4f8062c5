import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient, type DatasetInput } from '../../src/index.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const NOW = new Date('2025-03-13T18:00:00Z');

// The library's sync, status and verify: a dataset as an object, the same engine and ledger as the CLI.
const DATASET: DatasetInput = {
  root: 'data',
  series: [
    {
      name: 'daily',
      kind: 'eod',
      symbols: ['AAPL', 'MSFT'],
      start: '2025-01-02',
      end: 'now',
      path: 'eod/{symbol}.csv',
    },
    {
      name: 'es',
      kind: 'ticks',
      symbols: ['ESM25'],
      start: '2025-03-11',
      end: '2025-03-13',
      path: 'ticks/{symbol}/{date}.ndjson',
      tz: 'UTC',
    },
  ],
};

describe('client.sync, client.status, client.verify', () => {
  it('sync a dataset object, then status is complete, verify finds nothing, and a second sync fetches only the provisional', async () => {
    await withEmulator({ now: NOW }, async (emu) => {
      const dir = tempDir();
      const client = createClient(
        {
          username: emu.options.username,
          password: emu.options.password,
          historicalUrl: emu.urls.historical,
        },
        { now: () => NOW, maxRows: 1_000_000 },
      );
      try {
        const ref = { dataset: DATASET, dir };
        const planned = await client.sync(ref, { dryRun: true });
        expect(planned.fetches.map((f) => [f.reason, f.path.slice(dir.length)])).toEqual([
          ['missing', '/data/eod/AAPL.csv'],
          ['missing', '/data/eod/MSFT.csv'],
          ['missing', '/data/ticks/ESM25/2025-03-11.ndjson'],
          ['missing', '/data/ticks/ESM25/2025-03-12.ndjson'],
        ]);
        expect(emu.requests).toHaveLength(0);
        const first = await client.sync(ref, { concurrency: 2 });
        expect(first.failure).toBeUndefined();
        expect(first.fetches).toHaveLength(4);
        expect(existsSync(join(dir, 'data/.mdget/ledger.sqlite'))).toBe(true);
        const status = await client.status(ref);
        expect(status.complete).toBe(true);
        expect(status.series.map((s) => [s.name, s.planned, s.complete, s.provisional])).toEqual([
          ['daily', 2, 0, 2],
          ['es', 2, 2, 0],
        ]);
        expect((await client.verify(ref)).findings).toEqual([]);
        emu.requests.length = 0;
        const second = await client.sync(ref);
        expect(second.fetches.map((f) => f.reason)).toEqual(['provisional', 'provisional']);
        expect(emu.requests.every((r) => r.path.endsWith('queryeod.ashx'))).toBe(true);
      } finally {
        await client.close();
      }
    });
  }, 30_000);

  it('a mistake in a dataset object names the key, before any request', async () => {
    const client = createClient({ username: 'u', password: 'p', historicalUrl: 'http://127.0.0.1:9/' });
    try {
      const bad = { series: [{ ...DATASET.series![0]!, kind: 'tick' }] } as unknown as DatasetInput;
      await expect(client.sync({ dataset: bad, dir: tempDir() })).rejects.toMatchObject({
        code: 'MDGET_USAGE',
        message: expect.stringContaining('kind "tick": expected one of ticks'),
      });
    } finally {
      await client.close();
    }
  });

  it('mdget status refuses a ledger of a newer mdget: exit 6, one line', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'mdget.toml'),
      '[[series]]\nname="d"\nkind="eod"\nsymbols=["A"]\nstart="2025-01-02"\npath="{symbol}.csv"\n',
    );
    mkdirSync(join(dir, '.mdget'));
    const { openSqlite } = await import('../../src/core/reference/sqlite-backend.js');
    const db = openSqlite(join(dir, '.mdget/ledger.sqlite'));
    db.exec('PRAGMA user_version = 99');
    db.close();
    const run = await runMain(['status'], { cwd: dir });
    expect(run.code).toBe(6);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /written by a newer mdget \(ledger schema 99; this one reads up to \d+\): upgrade mdget/,
    );
  });
});
