import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT, expectNoCanary } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

describe('mdget CLI: help, usage and configuration errors', () => {
  it('prints help and version, exit 0', async () => {
    const help = await runMain(['--help']);
    expect(help.code).toBe(0);
    for (const command of [
      'ticks',
      'minutes',
      'eod',
      'events',
      'daterange',
      'futopts',
      'config',
      'emulator',
    ]) {
      expect(help.stdout).toContain(command);
    }
    const ticks = await runMain(['ticks', '--help']);
    expect([ticks.code, ticks.stdout]).toEqual([0, expect.stringContaining('--session-filter <codes>')]);
    const version = await runMain(['--version']);
    expect([version.code, version.stdout.trim()]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+$/)]);
  });

  it.each([
    [['ticks', 'AAPL', '--bogus'], /unknown option '--bogus'/],
    [['ticks', 'AAPL', '--start', '2025-02-30'], /invalid --start '2025-02-30': use YYYY-MM-DD/],
    [
      ['ticks', 'AAPL', '--start', '2025-03-14', '--end', '2025-03-13'],
      /--end 2025-03-13 must be after --start 2025-03-14/,
    ],
    [['minutes', 'AAPL', '--order', 'up'], /--order .*Allowed choices are asc, desc/],
    [['minutes', 'AAPL', '--maxrecords', '0'], /--maxrecords takes a whole number ≥ 1/],
    [['eod', 'AAPL', '--days-to-expiration', '61'], /--days-to-expiration takes a whole number from 0 to 60/],
    [['eod', 'ZC*1', '--nearest', '--continue'], /--nearest and --continue exclude each other/],
    [['ticks', 'AAPL', '--session-filter', 'a b'], /--session-filter .*expected session codes/],
    [['ticks'], /no symbols: give them as arguments or with --symbols-file/],
    [['ticks', 'A,B'], /invalid symbol 'A,B'/],
    [['ticks', 'AAPL', '--shard', '3/2'], /--shard '3\/2': expected i\/n/],
    [['ticks', 'AAPL', '--param', 'password=x'], /--param password: credentials come from/],
    [['ticks', 'AAPL', '--param', 'maxrecords=5'], /--param maxrecords: use --maxrecords instead/],
    [['ticks', 'AAPL', '--password', 'Canary7pw9Zq'], /--password is not accepted/],
    [['ticks', 'AAPL', '--timeout', 'soon'], /expected a duration/],
    [['ticks', 'AAPL', '--format', 'xml'], /Allowed choices are csv, raw, ndjson, json/],
    [
      ['futopts', 'ZC', '--json', '--format', 'csv'],
      /--json streams the service JSON through unchanged: use --format raw or json/,
    ],
    [
      ['futopts', 'ZC', 'CL', '--json', '--format', 'json'],
      /--json with several roots needs an output template/,
    ],
    [['eod', '--symbols-file', '-', '--password-stdin'], /both want standard input/],
  ])('%j → exit 2, one line naming the flag, no request', async (args, message) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const run = await runMain(args, { env: emu.env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')[0]).toMatch(/^mdget: /);
      expect(run.stdout).toBe('');
      expect(emu.requests).toHaveLength(0);
      expectNoCanary(run);
    });
  });

  it('exits 3 naming the variable when the password or a base URL is missing, before any request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const { MDGET_PASSWORD: _, ...noPassword } = emu.env;
      const run = await runMain(['ticks', 'AAPL'], { env: noPassword });
      expect([run.code, run.stderr]).toEqual([3, expect.stringContaining('MDGET_PASSWORD')]);
      const { MDGET_HISTORICAL_URL: __, ...noUrl } = emu.env;
      const run2 = await runMain(['eod', 'AAPL'], { env: noUrl });
      expect([run2.code, run2.stderr]).toEqual([3, expect.stringContaining('MDGET_HISTORICAL_URL')]);
      const run3 = await runMain(['eod', 'AAPL'], { env: { ...emu.env, MDGET_HISTORICAL_URL: 'ftp://x' } });
      expect([run3.code, run3.stderr]).toEqual([
        3,
        expect.stringContaining('MDGET_HISTORICAL_URL must be an http'),
      ]);
      expect(emu.requests).toHaveLength(0);
      for (const r of [run, run2, run3]) expectNoCanary(r);
    });
  });

  it('reads the password from --password-stdin, and settings from .env below env and flags', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const cwd = tempDir();
      const { MDGET_PASSWORD, MDGET_USERNAME, ...rest } = emu.env;
      writeFileSync(
        join(cwd, '.env'),
        `MDGET_USERNAME=${MDGET_USERNAME}\nMDGET_HISTORICAL_URL=http://127.0.0.1:9/wrong\n`,
      );
      const run = await runMain(
        ['eod', 'AAPL', '--start', '2025-03-10', '--end', '2025-03-12', '--password-stdin'],
        {
          env: rest,
          cwd,
          input: `${MDGET_PASSWORD}\n`,
        },
      );
      expect(run.code).toBe(0);
      expect(run.stdout.split('\n')[0]).toBe('symbol,date,open,high,low,close,volume,open_interest');
      expect(emu.requests[0]?.query.username).toBe(MDGET_USERNAME);
      expectNoCanary(run, cwd);
    });
  });

  it('mdget config shows each value and its source, password redacted', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const cwd = tempDir();
      writeFileSync(
        join(cwd, 'my.env'),
        `MDGET_PASSWORD=${emu.env.MDGET_PASSWORD}\nMDGET_EXTRAS_URL=http://e.test\n`,
      );
      const run = await runMain(['config', '--env-file', 'my.env', '--username', 'flaguser'], {
        env: { MDGET_HISTORICAL_URL: 'http://h.test', MDGET_EXTRAS_URL: 'http://overridden.test' },
        cwd,
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/MDGET_USERNAME +flaguser +flag/);
      expect(run.stdout).toMatch(/MDGET_PASSWORD +\*\*\* +dotenv .*my\.env/);
      expect(run.stdout).toMatch(/MDGET_HISTORICAL_URL +http:\/\/h\.test +environment/);
      expect(run.stdout).toMatch(/MDGET_EXTRAS_URL +http:\/\/overridden\.test +environment/);
      expect(run.stdout).toMatch(/MDGET_EXCHANGES_PATH +exchanges +default/);
      expect(run.stdout).toMatch(/MDGET_INSTRUMENTS_URL +\(unset\) +unset/);
      const leaky = await runMain(['config'], {
        env: {
          MDGET_PASSWORD: emu.env.MDGET_PASSWORD!,
          MDGET_HISTORICAL_URL: `http://u:${emu.env.MDGET_PASSWORD}@h.test/x`,
        },
        cwd,
      });
      expect(leaky.stdout).toMatch(/MDGET_HISTORICAL_URL +http:\/\/\*\*\*@h\.test\/x/);
      expectNoCanary(leaky);
      expectNoCanary(run);
      const missing = await runMain(['config', '--env-file', 'nope.env'], { cwd });
      expect([missing.code, missing.stderr]).toEqual([
        3,
        expect.stringContaining('cannot read --env-file nope.env'),
      ]);
    });
  });

  it('--dry-run prints the planned requests redacted and sends none', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const run = await runMain(
        ['ticks', 'AAPL', 'ES*1', '--start', '2025-03-13', '--end', '2025-03-15', '--dry-run'],
        {
          env: emu.env,
        },
      );
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines).toEqual([
        `${emu.urls.historical}/queryticks.ashx?username=***&password=***&symbol=AAPL&start=20250313&end=20250314&order=asc`,
        `${emu.urls.historical}/queryticks.ashx?username=***&password=***&symbol=AAPL&start=20250314&end=20250315&order=asc`,
        `${emu.urls.historical}/queryticks.ashx?username=***&password=***&symbol=ES%2A1&start=20250313&end=20250314&order=asc`,
        `${emu.urls.historical}/queryticks.ashx?username=***&password=***&symbol=ES%2A1&start=20250314&end=20250315&order=asc`,
      ]);
      expect(emu.requests).toHaveLength(0);
      expectNoCanary(run);
    });
  });
});
