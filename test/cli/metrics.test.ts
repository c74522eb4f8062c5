import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT, dataFilesIn, NO_PROBES, requestsTo } from '../helpers/cli-env.js';
import { expectPromtoolAccepts, samplesOf } from '../helpers/promtool.js';
import { CANARY, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const DAY = ['eod', 'AAPL', '--start', '2025-03-10', '--end', '2025-03-14'];
const EVENING = '2025-03-14T21:00:00Z'; // 1741986000
const NEXT_EVENING = '2025-03-15T21:00:00Z'; // 1742072400

/** The metrics file, checked by promtool and read as samples; every file in `dir` is a finished one. */
function metricsOf(path: string): Map<string, number> {
  const text = readFileSync(path, 'utf8');
  expect(text).not.toContain(CANARY);
  expectPromtoolAccepts(text);
  const dir = join(path, '..');
  expect(readdirSync(dir).filter((name) => name.endsWith('.part'))).toEqual([]);
  return samplesOf(text);
}

const labels = (job: string, command = 'eod') => `{command="${command}",mdget_job="${job}"}`;

describe('--metrics-file', () => {
  it('a success records its time; a failure keeps it, with its own exit status and counts', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const env = { ...emu.env, ...NO_PROBES };
      const first = await runMain([...DAY, '-o', join(dir, 'aapl.csv'), '--metrics-file', 'nightly.prom'], {
        env: { ...env, MDGET_NOW: EVENING },
        cwd: dir,
      });
      expect([first.code, first.stderr]).toEqual([0, '']);
      const ok = metricsOf(join(dir, 'nightly.prom'));
      const l = labels('nightly');
      expect(ok.get(`mdget_last_run_timestamp_seconds${l}`)).toBe(1741986000);
      expect(ok.get(`mdget_last_success_timestamp_seconds${l}`)).toBe(1741986000);
      expect(ok.get(`mdget_last_run_exit_code${l}`)).toBe(0);
      expect(ok.get(`mdget_requests_total${l}`)).toBe(1);
      expect(ok.get(`mdget_rows_written_total${l}`)).toBe(4);
      expect(ok.get(`mdget_files_written_total${l}`)).toBe(1);
      expect(ok.get(`mdget_failures_total${l}`)).toBe(0);
      expect(ok.get(`mdget_bytes_written_total${l}`)).toBeGreaterThan(0);
      expect(ok.get(`mdget_last_run_duration_seconds${l}`)).toBeGreaterThanOrEqual(0);

      emu.options.faults = [{ kind: 'status', status: 500 }];
      const second = await runMain(
        [...DAY, '-o', join(dir, 'aapl.csv'), '--force', '--retries', '1', '--metrics-file', 'nightly.prom'],
        { env: { ...env, MDGET_NOW: NEXT_EVENING }, cwd: dir },
      );
      expect(second.code).toBe(5);
      const failed = metricsOf(join(dir, 'nightly.prom'));
      expect(failed.get(`mdget_last_run_timestamp_seconds${l}`)).toBe(1742072400);
      expect(failed.get(`mdget_last_success_timestamp_seconds${l}`)).toBe(1741986000);
      expect(failed.get(`mdget_last_run_exit_code${l}`)).toBe(5);
      expect(failed.get(`mdget_requests_total${l}`)).toBe(2);
      expect(failed.get(`mdget_retries_total${l}`)).toBe(1);
      expect(failed.get(`mdget_failures_total${l}`)).toBe(1);
      expect(failed.get(`mdget_rows_written_total${l}`)).toBe(0);
    });
  });

  it('a damaged previous file is one warning and a success time of 0; the exit status is the run’s', async () => {
    await withEmulator({ ...CANARY_ACCOUNT, faults: [{ kind: 'status', status: 404 }] }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'm.prom'), 'mdget_last_success_timestamp_seconds{command="eod"} yesterday\n');
      const run = await runMain([...DAY, '-o', join(dir, 'a.csv'), '--metrics-file', 'm.prom'], {
        env: emu.env,
        cwd: dir,
      });
      expect(run.code).toBe(4);
      const lines = run.stderr.split('\n').slice(0, -1);
      expect(lines.filter((line) => line.startsWith('mdget: warning: '))).toEqual([
        `mdget: warning: metrics file ${join(dir, 'm.prom')}: mdget_last_success_timestamp_seconds has no number ("mdget_last_success_timestamp_seconds{command=\\"eod\\"} yesterday"); mdget_last_success_timestamp_seconds written as 0`,
      ]);
      expect(lines.at(-1)).toMatch(/^mdget: service refused/);
      const m = metricsOf(join(dir, 'm.prom'));
      expect(m.get(`mdget_last_success_timestamp_seconds${labels('m')}`)).toBe(0);
      expect(m.get(`mdget_last_run_exit_code${labels('m')}`)).toBe(4);
    });
  });

  it('a file that cannot be written: the data is written, one warning (even with -q), exit 0', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const run = await runMain([...DAY, '-o', join(dir, 'a.csv'), '-q'], {
        env: { ...emu.env, MDGET_METRICS_FILE: 'no-such-dir/m.prom' },
        cwd: dir,
      });
      expect([run.code, run.stderr]).toEqual([
        0,
        `mdget: warning: cannot write metrics file ${join(dir, 'no-such-dir/m.prom')}: no such file or directory\n`,
      ]);
      expect(dataFilesIn(dir)).toEqual(['a.csv']);
    });
  });

  it('--metrics-job names the job; without a metrics file it is refused before any request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const refused = await runMain([...DAY, '-o', join(dir, 'a.csv'), '--metrics-job', 'x'], {
        env: emu.env,
        cwd: dir,
      });
      expect([refused.code, refused.stderr, emu.requests.length]).toEqual([
        2,
        'mdget: --metrics-job names the job of a metrics file: give --metrics-file <path> too\n',
        0,
      ]);
      const run = await runMain(
        [...DAY, '-o', join(dir, 'a.csv'), '--metrics-file', 'm.prom', '--metrics-job', 'eod "close"'],
        {
          env: emu.env,
          cwd: dir,
        },
      );
      expect(run.code).toBe(0);
      const m = metricsOf(join(dir, 'm.prom'));
      expect(m.get('mdget_last_run_exit_code{command="eod",mdget_job="eod \\"close\\""}')).toBe(0);
    });
  });

  it('a dry run writes none', async () => {
    const dir = tempDir();
    const env = { MDGET_USERNAME: 'u', MDGET_PASSWORD: 'p', MDGET_HISTORICAL_URL: 'http://127.0.0.1:9/' };
    const run = await runMain([...DAY, '--dry-run', '--metrics-file', 'm.prom'], { env, cwd: dir });
    expect([run.code, existsSync(join(dir, 'm.prom'))]).toEqual([0, false]);
  });
});

const DATASET = `root = "data"

[[series]]
name = "es"
kind = "ticks"
symbols = ["ESM25"]
start = "2025-03-12"
end = "now"
path = "ticks/{symbol}/{date}.csv"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL"]
start = "2025-03-03"
end = "2025-03-08"
path = "eod/{symbol}.csv"

[[series]]
name = "growing"
kind = "eod"
symbols = ["MSFT"]
start = "2025-03-10"
end = "now"
path = "eod-growing/{symbol}.csv"
`;

describe('sync --metrics-file and status --metrics', () => {
  it('per series: files complete, provisional and missing, and the newest complete day; status prints the same gauges', async () => {
    await withEmulator(
      { ...CANARY_ACCOUNT, faults: [{ kind: 'status', status: 500, path: 'queryticks.ashx', times: 1 }] },
      async (emu) => {
        const dir = tempDir();
        writeFileSync(join(dir, 'mdget.toml'), DATASET);
        mkdirSync(join(dir, 'prom'));
        const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: '2025-03-14T18:00:00Z' };
        const run = await runMain(
          ['sync', '--retries', '0', '--concurrency', '1', '--metrics-file', 'prom/sync.prom'],
          {
            env,
            cwd: dir,
          },
        );
        expect(run.code).toBe(7);
        expect(requestsTo(emu, 'queryticks.ashx')).toHaveLength(3);
        const m = metricsOf(join(dir, 'prom/sync.prom'));
        const job = join(dir, 'mdget.toml');
        const s = (series: string, more = '') =>
          `{command="sync",mdget_job="${job}",series="${series}"${more}}`;
        expect(m.get(`mdget_last_run_exit_code{command="sync",mdget_job="${job}"}`)).toBe(7);
        expect(m.get(`mdget_failures_total{command="sync",mdget_job="${job}"}`)).toBe(1);
        // ticks: 12th failed, 13th complete, 14th (today) provisional
        expect(m.get(`mdget_series_files${s('es', ',state="complete"')}`)).toBe(1);
        expect(m.get(`mdget_series_files${s('es', ',state="provisional"')}`)).toBe(1);
        expect(m.get(`mdget_series_files${s('es', ',state="missing"')}`)).toBe(1);
        expect(m.get(`mdget_series_newest_complete_timestamp_seconds${s('es')}`)).toBe(
          Date.parse('2025-03-13') / 1000,
        );
        // a growing file is provisional; its days before the day it was fetched are final
        expect(m.get(`mdget_series_files${s('growing', ',state="provisional"')}`)).toBe(1);
        expect(m.get(`mdget_series_newest_complete_timestamp_seconds${s('growing')}`)).toBe(
          Date.parse('2025-03-13') / 1000,
        );
        expect(m.get(`mdget_series_newest_complete_timestamp_seconds${s('daily')}`)).toBe(
          Date.parse('2025-03-07') / 1000,
        );

        const status = await runMain(['status', '--metrics'], {
          env: { MDGET_NOW: '2025-03-14T18:00:00Z' },
          cwd: dir,
        });
        expect(status.code).toBe(0);
        expectPromtoolAccepts(status.stdout);
        const gauges = [...m].filter(([name]) => name.startsWith('mdget_series_'));
        expect([...samplesOf(status.stdout)]).toEqual(
          gauges.map(([name, value]) => [name.replace('command="sync"', 'command="status"'), value]),
        );
      },
    );
  });
});
