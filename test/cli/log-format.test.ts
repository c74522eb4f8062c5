import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT, NO_PROBES } from '../helpers/cli-env.js';
import { CANARY, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const schema = JSON.parse(readFileSync(new URL('../../docs/log-line.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ strict: true, validateFormats: false }).compile(schema);

type Line = { time: string; level: string; msg: string } & Record<string, unknown>;

/** Every line of stderr as a JSON object checked against docs/log-line.schema.json. */
function linesOf(stderr: string): Line[] {
  expect(stderr.endsWith('\n') || stderr === '').toBe(true);
  return stderr
    .split('\n')
    .slice(0, -1)
    .map((text) => {
      const line = JSON.parse(text) as Line;
      expect(validate(line), `${text}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(Number.isNaN(Date.parse(line.time))).toBe(false);
      return line;
    });
}

/** The fields of each line but its time. */
const withoutTime = (lines: Line[]) => lines.map(({ time: _time, ...rest }) => rest);

const DATASET = `root = "data"

[[series]]
name = "es"
kind = "ticks"
symbols = ["ESM25", "NQM25"]
start = "2025-03-12"
end = "2025-03-14"
path = "ticks/{symbol}/{date}.csv"
`;

describe('--log-format json', () => {
  it('a failed sync: each file an error line with code, series and file; the last line carries the exit', async () => {
    const faults = [{ kind: 'status' as const, status: 500, path: 'queryticks.ashx' }];
    await withEmulator({ ...CANARY_ACCOUNT, faults }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const run = await runMain(['sync', '--retries', '0', '--log-format', 'json'], {
        env: { ...emu.env, ...NO_PROBES },
        cwd: dir,
      });
      expect(run.code).toBe(5);
      expect(run.stderr).not.toContain(CANARY);
      const lines = linesOf(run.stderr);
      const errors = lines.filter((l) => l.level === 'error');
      const files = errors.filter((l) => l.file !== undefined);
      expect(files).toHaveLength(4);
      for (const l of files) {
        expect(l).toMatchObject({ code: 'MDGET_HTTP', series: 'es' });
        expect(l.file).toMatch(new RegExp(`^${dir}/data/ticks/(ESM25|NQM25)/2025-03-1[23]\\.csv$`));
        expect(l.msg).toMatch(/^mdget: ticks\/.*HTTP 500/);
      }
      const summary = lines.find((l) => l.msg.startsWith('mdget: sync: '));
      expect(summary).toMatchObject({ level: 'info', rows: 0, bytes: 0 });
      expect(summary?.exit).toBeUndefined();
      expect(lines.at(-1)).toMatchObject({ level: 'error', code: 'MDGET_HTTP', exit: 5 });
      expect(lines.filter((l) => l.exit !== undefined)).toHaveLength(1);
    });
  });

  it('a download: retries as warnings with the redacted URL, a note naming its symbol and file, the summary last with exit 0', async () => {
    const faults = [{ kind: 'status' as const, status: 503, times: 1 }];
    await withEmulator({ ...CANARY_ACCOUNT, faults }, async (emu) => {
      const dir = tempDir();
      const run = await runMain(
        ['ticks', 'ESM25', '--start', '2025-03-15', '--end', '2025-03-17', '-o', join(dir, 't-{date}.csv')],
        { env: { ...emu.env, ...NO_PROBES, MDGET_LOG_FORMAT: 'json' }, cwd: dir },
      );
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain(CANARY);
      const lines = withoutTime(linesOf(run.stderr));
      const retry = lines.find((l) => l.level === 'warn');
      expect(retry?.msg).toMatch(/^mdget: retry 1 in \d+ ms: HTTP 503/);
      expect(retry?.url).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/historical\/queryticks\.ashx\?username=\*\*\*&password=\*\*\*&/,
      );
      expect(lines).toContainEqual({
        level: 'info',
        msg: 'mdget: no records for ticks ESM25 2025-03-15',
        symbol: 'ESM25',
        file: join(dir, 't-2025-03-15.csv'),
      });
      const last = lines.at(-1);
      expect(last).toMatchObject({ level: 'info', exit: 0, bytes: expect.any(Number) });
      expect(last?.msg).toMatch(/^mdget: 2 files written · [\d,]+ rows · /);
      expect(last?.rows).toBeGreaterThan(0);
    });
  });

  it('a failed download ends with its error: code, the redacted URL and the exit; no field holds the password', async () => {
    await withEmulator({ ...CANARY_ACCOUNT, faults: [{ kind: 'status', status: 500 }] }, async (emu) => {
      const dir = tempDir();
      const run = await runMain(
        [
          'eod',
          'AAPL',
          '--start',
          '2025-03-10',
          '-o',
          join(dir, 'a.csv'),
          '--retries',
          '0',
          '--log-format',
          'json',
        ],
        { env: emu.env, cwd: dir },
      );
      expect(run.code).toBe(5);
      expect(run.stderr).not.toContain(CANARY);
      const last = linesOf(run.stderr).at(-1);
      expect(last).toMatchObject({ level: 'error', code: 'MDGET_HTTP', exit: 5 });
      expect(last?.url).toMatch(/\/historical\/queryeod\.ashx\?username=\*\*\*&password=\*\*\*&symbol=AAPL&/);
    });
  });

  it('a usage error from the parser is one error line with code and exit, and nothing is sent', async () => {
    const run = await runMain(['ticks', 'ESM25', '--nope', '--log-format=json']);
    expect(run.code).toBe(2);
    expect(withoutTime(linesOf(run.stderr))).toEqual([
      { level: 'error', msg: "mdget: unknown option '--nope'", code: 'MDGET_USAGE', exit: 2 },
    ]);
  });

  it('the flag wins over MDGET_LOG_FORMAT; a bad variable is one line naming it, exit 3', async () => {
    const text = await runMain(['ticks', '--log-format', 'text'], { env: { MDGET_LOG_FORMAT: 'json' } });
    expect(text.stderr).toMatch(/^mdget: /);
    const bad = await runMain(['ticks', 'ESM25'], { env: { MDGET_LOG_FORMAT: 'yaml' } });
    expect([bad.code, bad.stderr]).toEqual([
      3,
      'mdget: MDGET_LOG_FORMAT=yaml: not a log format; give text or json\n',
    ]);
    const flag = await runMain(['ticks', 'ESM25', '--log-format', 'yaml']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("'--log-format <text|json>' argument 'yaml' is invalid");
  });

  it('lines written without a level (a dry run, help on stderr) are info objects too', async () => {
    const dir = tempDir();
    const run = await runMain(
      ['ticks', 'ESM25', '--start', '2025-03-13', '--dry-run', '--log-format', 'json'],
      {
        env: { MDGET_USERNAME: 'u', MDGET_PASSWORD: CANARY, MDGET_HISTORICAL_URL: 'http://127.0.0.1:9/' },
        cwd: dir,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^http:\/\/127\.0\.0\.1:9\/queryticks\.ashx\?username=\*\*\*&password=\*\*\*/);
    const lines = withoutTime(linesOf(run.stderr));
    expect(lines[0]).toEqual({
      level: 'info',
      msg: 'mdget: transport: concurrency 4, retries 3, timeout 60 s, rate unlimited, 8 sockets per host',
    });
    expect(lines[1]).toEqual({
      level: 'info',
      msg: 'mdget: ESM25 2025-03-13 00:00 → 2025-03-14 00:00 America/Chicago = 2025-03-13T05:00Z → 2025-03-14T05:00Z',
    });
    const none = await runMain([], { env: { MDGET_LOG_FORMAT: 'json' } });
    const [help, ...more] = linesOf(none.stderr);
    expect([none.code, more]).toEqual([2, []]);
    expect(help).toMatchObject({ level: 'error', code: 'MDGET_USAGE', exit: 2 });
    expect(help?.msg).toContain('Usage: mdget');
  });
});
