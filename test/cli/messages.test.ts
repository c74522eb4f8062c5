import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const FIXED = '2025-03-14T21:00:00Z';

const dataset = (start: string, end: string) => `root = "data"

[[series]]
name = "a"
kind = "eod"
symbols = ["AAPL"]
start = "${start}"
end = "${end}"
path = "eod/{symbol}.csv"
`;

describe('messages name what the user wrote, once', () => {
  it('a bad base URL is named by its flag when a flag gave it, by its variable otherwise', async () => {
    await withEmulator({}, async (emu) => {
      const eod = ['eod', 'AAPL', '--start', '2025-03-10', '--end', '2025-03-12'];
      const [flag, variable] = await Promise.all([
        runMain([...eod, '--historical-url', 'ftp://x'], { env: emu.env }),
        runMain(eod, { env: { ...emu.env, MDGET_HISTORICAL_URL: 'ftp://x' } }),
      ]);
      expect([flag.code, flag.stderr]).toEqual([
        3,
        'mdget: --historical-url must be an http:// or https:// URL, not ftp:\n',
      ]);
      expect([variable.code, variable.stderr]).toEqual([
        3,
        'mdget: MDGET_HISTORICAL_URL must be an http:// or https:// URL, not ftp:\n',
      ]);
      expect(emu.requests).toHaveLength(0);
    });
  });

  it("a dataset's end before its start names the series once", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mdget.toml'), dataset('2025-03-12', '2025-03-01'));
    const run = await runMain(['sync', '--dry-run'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^mdget: .*mdget\.toml:\d+: series "a": end 2025-03-01 must be after start 2025-03-12/,
    );
    expect(run.stderr.match(/series "a"/g)).toHaveLength(1);
  });

  it('status shows when a sync ran on the machine clock, while MDGET_NOW fixes the days it plans', async () => {
    await withEmulator({ now: new Date(FIXED) }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), dataset('2025-03-10', '2025-03-12'));
      const env = { ...emu.env, MDGET_NOW: FIXED };
      const sync = await runMain(['sync', '-q'], { cwd: dir, env });
      expect([sync.code, sync.stderr]).toEqual([0, '']);
      const status = await runMain(['status'], { cwd: dir, env });
      const last = /^last sync: (\S+), ended (\S+), exit 0$/m.exec(status.stdout);
      expect(last).not.toBeNull();
      // the stamps are real times, not the fixed "now" twice
      for (const stamp of [last?.[1], last?.[2]])
        expect(Date.parse(stamp ?? '')).toBeGreaterThan(Date.parse(FIXED));
    });
  });
});
