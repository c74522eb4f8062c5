import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { CANARY_ACCOUNT, NO_PROBES } from '../helpers/cli-env.js';
import { CANARY, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A plan holds windows and outputs; the URL is built on the base and signed only when a request is sent.
const TICKS = ['ticks', 'AAPL', '--start', '2025-03-14', '--end', '2025-03-15'];

const DATASET = `root = "data"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL", "MSFT"]
start = "2025-03-10"
end = "2025-03-12"
path = "eod/{symbol}.csv"
`;

describe('plans without credentials', () => {
  it('--dry-run with no credentials shows the URL without them; with them, redacted as sent', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const base = { MDGET_HISTORICAL_URL: emu.env.MDGET_HISTORICAL_URL! };
      const bare = await runMain([...TICKS, '--dry-run'], { env: base });
      expect([bare.code, bare.stdout]).toEqual([
        0,
        `${emu.urls.historical}/queryticks.ashx?symbol=AAPL&start=20250314&end=20250315&order=asc\n`,
      ]);
      const signed = await runMain([...TICKS, '--dry-run'], { env: emu.env });
      expect([signed.code, signed.stdout]).toEqual([
        0,
        `${emu.urls.historical}/queryticks.ashx?username=***&password=***&symbol=AAPL&start=20250314&end=20250315&order=asc\n`,
      ]);
      expect(signed.stdout + signed.stderr).not.toContain(CANARY);
      expect(emu.requests).toHaveLength(0);
    });
  });

  it('a run without credentials stops before any request, exit 3', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const env = { ...emu.env, ...NO_PROBES };
      delete (env as Record<string, string | undefined>).MDGET_PASSWORD;
      const run = await runMain([...TICKS, '-o', join(dir, 'out.csv')], { env });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/missing password/);
      expect(emu.requests).toHaveLength(0);
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  it('status, verify and sync --dry-run of a dataset need no configuration at all (no .env)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mdget.toml'), DATASET);
    const status = await runMain(['status'], { env: {}, cwd: dir });
    expect([status.code, status.stderr]).toEqual([0, '']);
    expect(status.stdout).toMatch(/daily/);
    const verify = await runMain(['verify'], { env: {}, cwd: dir });
    expect(verify.code).toBe(0);
    const dry = await runMain(['sync', '--dry-run', '-q'], { env: {}, cwd: dir });
    expect([dry.code, dry.stdout]).toEqual([
      0,
      'missing\tdaily\teod/AAPL.csv\nmissing\tdaily\teod/MSFT.csv\n',
    ]);
  });

  it('a library sync without credentials stops before the lock and any request (MDGET_CONFIG)', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const client = createClient({ username: 'tester', historicalUrl: emu.urls.historical });
      try {
        await expect(client.sync(join(dir, 'mdget.toml'))).rejects.toMatchObject({ code: 'MDGET_CONFIG' });
        expect((await client.sync(join(dir, 'mdget.toml'), { dryRun: true })).fetches).toHaveLength(2);
      } finally {
        await client.close();
      }
      expect(emu.requests).toHaveLength(0);
      expect(readdirSync(dir)).toEqual(['mdget.toml']);
    });
  });

  it('the library plans without credentials and signs only what it sends', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const query = { symbols: 'AAPL', start: '2025-03-14', end: '2025-03-15' } as const;
      const bare = createClient({ historicalUrl: emu.urls.historical });
      try {
        const plan = bare.ticks(query).plan();
        expect(plan).toHaveLength(1);
        expect(JSON.stringify(plan)).not.toMatch(/username|password|127\.0\.0\.1/);
        await expect(bare.ticks(query).download(join(tempDir(), 'x.csv'))).rejects.toMatchObject({
          code: 'MDGET_CONFIG',
        });
        expect(emu.requests).toHaveLength(0);
      } finally {
        await bare.close();
      }
      const client = createClient({ ...CANARY_ACCOUNT, historicalUrl: emu.urls.historical });
      try {
        await client.ticks(query).download(join(tempDir(), 'x.csv'), { maxRows: 1_000_000 });
        expect(emu.requests.map((r) => r.query.password)).toEqual([CANARY]);
      } finally {
        await client.close();
      }
    });
  });
});
