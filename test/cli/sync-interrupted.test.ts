import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { NO_PROBES } from '../helpers/cli-env.js';
import { BIN, nodePath, runMain, tempDir } from '../helpers/run-cli.js';
import { openDb } from '../helpers/sqlite.js';
import { DEBUG_ENV, withEmulator } from '../helpers/with-emulator.js';

// A sync stopped halfway says and stores the files it wrote, not those it started (docs/dataset.md).
const DATASET = `root = "data"

[[series]]
name = "es"
kind = "ticks"
symbols = ["ESM25"]
start = "2025-02-03"
end = "2025-03-01"
path = "ticks/{symbol}/{date}.csv"
`;
const NOW = '2025-03-13T18:00:00Z';

const onDisk = (dir: string): number =>
  existsSync(join(dir, 'data/ticks/ESM25'))
    ? readdirSync(join(dir, 'data/ticks/ESM25')).filter((n) => n.endsWith('.csv')).length
    : 0;

function ledgerCounts(dir: string): { rows: number; fetched: number; outcome: string } {
  const db = openDb(join(dir, 'data/.mdget/ledger.sqlite'));
  try {
    const rows = Number((db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n);
    const last = db.prepare('SELECT fetched, outcome FROM syncs ORDER BY id DESC LIMIT 1').get() as {
      fetched: number;
      outcome: string;
    };
    return { rows, fetched: last.fetched, outcome: last.outcome };
  } finally {
    db.close();
  }
}

describe('a sync interrupted halfway', () => {
  it('the library, aborted after some files: the ledger and status count the files on disk', async () => {
    await withEmulator({ now: new Date(NOW), latency: 30 }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const controller = new AbortController();
      let done = 0;
      const client = createClient(
        {
          username: emu.options.username,
          password: emu.options.password,
          historicalUrl: emu.urls.historical,
        },
        {
          now: () => new Date(NOW),
          listeners: {
            onProgress: (e) => {
              if (e.done && ++done === 4) controller.abort();
            },
          },
        },
      );
      try {
        const ref = join(dir, 'mdget.toml');
        await expect(client.sync(ref, { signal: controller.signal, concurrency: 2 })).rejects.toMatchObject({
          code: 'MDGET_ABORTED',
        });
        const files = onDisk(dir);
        expect(files).toBeLessThan(19);
        expect(ledgerCounts(dir)).toEqual({ rows: files, fetched: files, outcome: 'MDGET_ABORTED' });
        expect((await client.status(ref)).lastSync).toMatchObject({ fetched: files });
      } finally {
        await client.close();
      }
    });
  }, 60_000);

  it('SIGTERM: exit 143, the summary and status --json give the files on disk', async () => {
    await withEmulator({ now: new Date(NOW), latency: 60 }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: NOW };
      const child = spawn(BIN, ['sync', '--concurrency', '2'], {
        cwd: dir,
        env: { PATH: nodePath(), NO_COLOR: '1', ...DEBUG_ENV, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      for (let i = 0; i < 500 && onDisk(dir) < 3; i++) await sleep(20);
      child.kill('SIGTERM');
      const code = await new Promise((resolve) => child.once('close', (c, s) => resolve(c ?? s)));
      expect(code).toBe(143);
      const files = onDisk(dir);
      expect(files).toBeLessThan(19);
      expect(stderr).toContain(`mdget: sync: ${files} files fetched`);
      expect(ledgerCounts(dir)).toMatchObject({ rows: files, fetched: files });
      const status = await runMain(['status', '--json'], { cwd: dir, env });
      expect(JSON.parse(status.stdout).lastSync).toMatchObject({ fetched: files });
    });
  }, 60_000);
});
