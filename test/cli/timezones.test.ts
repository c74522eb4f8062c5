import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { wallTimeOf } from '../../src/core/time/time-zones.js';
import { CANARY_ACCOUNT, dataFilesIn, expectNoCanary, NO_PROBES } from '../helpers/cli-env.js';
import { BIN, nodePath, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/**
 * Time zones through the built CLI (docs/time-zones.md): --utc, --tz and --source-tz across both
 * daylight-saving changes, offset dates, --columns, gzip outputs and --dry-run's window times. ^BTCUSD trades
 * through both changes (Central time). NO_PROBES: these tests assert exact rows and requests.
 */
// never execFileSync with the emulator in this process: it could not answer
const run = promisify(execFile);

type Env = Record<string, string>;
const envOf = (emu: { env: Env }): Env => ({ ...emu.env, ...NO_PROBES });
const rows = (csv: string) => csv.trimEnd().split('\n').slice(1);
/** The `time` column of csv whose header leads with symbol,time. */
const times = (csv: string) => rows(csv).map((line) => line.split(',')[1]!);
const offsetOf = (iso: string) => /(Z|[+-]\d{2}:\d{2})$/.exec(iso)?.[1];
const instants = (isoTimes: readonly string[]) => isoTimes.map((t) => Date.parse(t));
const increasing = (values: readonly number[], step?: number) =>
  values.every((v, i) => i === 0 || (step === undefined ? v >= values[i - 1]! : v - values[i - 1]! === step));
/** Offsets in the order they first appear, each run collapsed: [-05:00, -06:00] means no going back. */
const offsetRuns = (isoTimes: readonly string[]) =>
  isoTimes.map(offsetOf).filter((offset, i, all) => i === 0 || offset !== all[i - 1]);

async function mdget(emu: { env: Env }, args: readonly string[], cwd?: string) {
  const result = await runMain(args, { env: envOf(emu), ...(cwd ? { cwd } : {}) });
  expectNoCanary(result);
  return result;
}

describe('spring forward (2025-03-09): the missing hour never appears', () => {
  it('minutes: --utc runs on without a gap, --tz shows the new offset after the jump', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['minutes', '^BTCUSD', '--start', '2025-03-09T01:58', '--end', '2025-03-09T03:02'];
      const raw = await mdget(emu, args);
      expect(times(raw.stdout)).toEqual([
        '2025-03-09 01:58',
        '2025-03-09 01:59',
        '2025-03-09 03:00',
        '2025-03-09 03:01',
      ]);
      const utc = await mdget(emu, [...args, '--utc']);
      expect([utc.code, times(utc.stdout)]).toEqual([
        0,
        ['2025-03-09T07:58:00Z', '2025-03-09T07:59:00Z', '2025-03-09T08:00:00Z', '2025-03-09T08:01:00Z'],
      ]);
      const central = await mdget(emu, [...args, '--tz', 'America/Chicago']);
      expect(times(central.stdout)).toEqual([
        '2025-03-09T01:58:00-06:00',
        '2025-03-09T01:59:00-06:00',
        '2025-03-09T03:00:00-05:00',
        '2025-03-09T03:01:00-05:00',
      ]);
      // the other columns are the service's, byte for byte
      const rest = (csv: string) =>
        rows(csv).map((line) => {
          const [symbol, , ...fields] = line.split(',');
          return [symbol, ...fields].join(',');
        });
      expect(rest(central.stdout)).toEqual(rest(raw.stdout));
    });
  });

  it('ticks: no 02:xx in Central, none in Eastern (which moved an hour earlier), offsets change once', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['ticks', '^BTCUSD', '--start', '2025-03-09T00:50', '--end', '2025-03-09T03:10'];
      const raw = times((await mdget(emu, args)).stdout);
      expect(raw.some((t) => t.startsWith('2025-03-09 02:'))).toBe(false);
      const central = times((await mdget(emu, [...args, '--tz', 'America/Chicago'])).stdout);
      const eastern = times((await mdget(emu, [...args, '--tz', 'America/New_York'])).stdout);
      const utc = times((await mdget(emu, [...args, '--utc'])).stdout);
      for (const zoned of [central, eastern, utc]) expect(zoned).toHaveLength(raw.length);
      expect(central.some((t) => t.slice(11, 13) === '02')).toBe(false);
      expect(eastern.some((t) => t.slice(11, 13) === '02')).toBe(false);
      expect(offsetRuns(central)).toEqual(['-06:00', '-05:00']);
      // Eastern jumps at 07:00Z, during Central's 01:00 hour: ticks there are 03:xx-04:00 in New York
      expect(offsetRuns(eastern)).toEqual(['-05:00', '-04:00']);
      expect(eastern.filter((t, i) => raw[i]!.slice(11, 13) === '01' && t.endsWith('-04:00')).length).toBe(
        raw.filter((t) => t >= '2025-03-09 01:00').filter((t) => t < '2025-03-09 02:00').length,
      );
      // every form names the same instants
      expect(instants(central)).toEqual(instants(utc));
      expect(instants(eastern)).toEqual(instants(utc));
      expect(increasing(instants(utc))).toBe(true);
    });
  });
});

describe('fall back (2025-11-02): the repeated hour keeps its order, first pass daylight time', () => {
  it('minutes: --tz gives the hour twice with -05:00 then -06:00; --utc is one minute apart throughout', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['minutes', '^BTCUSD', '--start', '2025-11-02T00:59', '--end', '2025-11-02T02:01'];
      const raw = times((await mdget(emu, args)).stdout);
      expect(raw.filter((t) => t === '2025-11-02 01:30')).toHaveLength(2);
      const central = times((await mdget(emu, [...args, '--tz', 'America/Chicago'])).stdout);
      expect(central.filter((t) => t.startsWith('2025-11-02T01:30'))).toEqual([
        '2025-11-02T01:30:00-05:00',
        '2025-11-02T01:30:00-06:00',
      ]);
      expect(offsetRuns(central)).toEqual(['-05:00', '-06:00']);
      expect(central).toHaveLength(raw.length);
      const utc = times((await mdget(emu, [...args, '--utc'])).stdout);
      expect(utc[0]).toBe('2025-11-02T05:59:00Z');
      expect(utc.at(-1)).toBe('2025-11-02T08:00:00Z');
      expect(increasing(instants(utc), 60_000)).toBe(true);
      // descending: the same instants, reversed (the fold is read from the other end)
      const desc = times((await mdget(emu, [...args, '--utc', '--order', 'desc'])).stdout);
      expect(desc).toEqual([...utc].reverse());
    });
  });

  it('minutes: a window that ends at 01:01 holds 01:00 of both passes, each with its own offset', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['minutes', '^BTCUSD', '--start', '2025-11-02T00:59', '--end', '2025-11-02T01:01'];
      expect(times((await mdget(emu, [...args, '--tz', 'America/Chicago'])).stdout)).toEqual([
        '2025-11-02T00:59:00-05:00',
        '2025-11-02T01:00:00-05:00',
        '2025-11-02T01:00:00-06:00',
      ]);
    });
  });

  it('minutes: Eastern as the target repeats its own 01:00 hour, offsets -04:00 then -05:00', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      // Central 00:30–01:00 CDT is 05:30–06:00Z, Eastern's first 01:30–02:00 (EDT); from 06:00Z Eastern is
      // back on standard time and shows 01:00 again
      const args = ['minutes', '^BTCUSD', '--start', '2025-11-02T00:30', '--end', '2025-11-02T01:15'];
      const eastern = times((await mdget(emu, [...args, '--tz', 'America/New_York'])).stdout);
      expect(eastern.slice(0, 2)).toEqual(['2025-11-02T01:30:00-04:00', '2025-11-02T01:31:00-04:00']);
      expect(eastern).toContain('2025-11-02T01:00:00-05:00');
      expect(offsetRuns(eastern)).toEqual(['-04:00', '-05:00']);
      // both passes of Central's 01:00–01:15 are there: 06:00–06:15Z, then 07:00–07:15Z
      expect(increasing(instants(eastern))).toBe(true);
      expect(new Set(eastern).size).toBe(eastern.length);
      expect(eastern.at(-1)).toBe('2025-11-02T02:14:00-05:00');
    });
  });

  it('--source-tz America/New_York reads the same wall clocks as Eastern: its fold, its offsets', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['minutes', '^BTCUSD', '--start', '2025-11-02T00:59', '--end', '2025-11-02T02:01'];
      const utc = times((await mdget(emu, [...args, '--utc', '--source-tz', 'America/New_York'])).stdout);
      expect(utc.slice(0, 2)).toEqual(['2025-11-02T04:59:00Z', '2025-11-02T05:00:00Z']);
      expect(utc.at(-1)).toBe('2025-11-02T07:00:00Z');
      expect(increasing(instants(utc), 60_000)).toBe(true);
    });
  });

  it('ticks: the offsets change once, instants never go back, --utc round-trips to the wall clock', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['ticks', '^BTCUSD', '--start', '2025-11-02T00:50', '--end', '2025-11-02T02:10'];
      const raw = times((await mdget(emu, args)).stdout);
      const central = times((await mdget(emu, [...args, '--tz', 'America/Chicago'])).stdout);
      const utc = times((await mdget(emu, [...args, '--utc'])).stdout);
      expect(central).toHaveLength(raw.length);
      expect(offsetRuns(central)).toEqual(['-05:00', '-06:00']);
      expect(central.filter((t) => t.slice(11, 13) === '01').map(offsetOf)).toContain('-06:00');
      expect(instants(central)).toEqual(instants(utc));
      expect(increasing(instants(utc))).toBe(true);
      const back = utc.map((t) =>
        wallTimeOf(new Date(t), 'America/Chicago').toISOString().replace('T', ' ').slice(0, 23),
      );
      expect(back).toEqual(raw);
    });
  });
});

describe('offset dates in --start and --end', () => {
  it.each([
    [
      ['ticks', '^BTCUSD'],
      '2025-03-13T14:30:00Z',
      '2025-03-13T14:31:00Z',
      '20250313093000',
      '20250313093100',
    ],
    [
      ['ticks', 'AAPL'],
      '2025-03-13T14:30:00Z',
      '2025-03-13T15:00:00+00:00',
      '20250313103000',
      '20250313110000',
    ],
    [
      ['minutes', 'AAPL'],
      '2025-03-13T15:30+01:00',
      '2025-03-13T10:45-04:00',
      '20250313103000',
      '20250313104500',
    ],
    // a nearby root looks like an equity ticker, but the endpoint serves futures: Central
    [
      ['minutes', 'ES', '--nearby'],
      '2025-03-13T14:30:00Z',
      '2025-03-13T14:33:00Z',
      '20250313093000',
      '20250313093300',
    ],
  ])(
    '%j %s → the market wall clock the emulator receives',
    async (command, start, end, sentStart, sentEnd) => {
      await withEmulator(CANARY_ACCOUNT, async (emu) => {
        const result = await mdget(emu, [...command, '--start', start, '--end', end]);
        expect(result.code).toBe(0);
        expect(emu.requests.map((r) => [r.query.start, r.query.end])).toEqual([[sentStart, sentEnd]]);
      });
    },
  );

  it('nearby minutes of a root (ES) convert from Central, not from the equity rule', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['minutes', 'ES', '--nearby', '--start', '2025-03-13T09:30', '--end', '2025-03-13T09:32'];
      const result = await mdget(emu, [...args, '--utc']);
      expect(result.code).toBe(0);
      expect(rows(result.stdout).map((line) => line.split(',')[2])).toEqual([
        '2025-03-13T14:30:00Z',
        '2025-03-13T14:31:00Z',
      ]);
    });
  });

  it('with --source-tz the instant becomes the wall clock of that zone, which --dry-run shows as the same instant', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['minutes', '^BTCUSD', '--start', '2025-03-13T14:30:00Z', '--end', '2025-03-13T15:00:00Z'];
      const dry = await mdget(emu, [...args, '--source-tz', 'America/New_York', '--dry-run']);
      expect(dry.stdout).toContain('&start=20250313103000&end=20250313110000&');
      expect(dry.stderr).toContain('America/New_York = 2025-03-13T14:30Z → 2025-03-13T15:00Z');
      const result = await mdget(emu, [...args, '--source-tz', 'America/New_York', '--utc']);
      expect(emu.requests.map((r) => [r.query.start, r.query.end])).toEqual([
        ['20250313103000', '20250313110000'],
      ]);
      expect(times(result.stdout)[0]).toBe('2025-03-13T14:30:00Z');
    });
  });

  it('a bad offset is a usage error naming the flag; no request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const result = await mdget(emu, ['ticks', 'AAPL', '--start', '2025-03-13T14:30:00+25:00']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^mdget: invalid --start '2025-03-13T14:30:00\+25:00'.*\n$/);
      expect(emu.requests).toHaveLength(0);
    });
  });
});

describe('--columns', () => {
  it('picks and orders the csv columns, timestamps converted; ndjson keeps the order too', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['minutes', '^BTCUSD', '--start', '2025-03-10T10:00', '--end', '2025-03-10T10:03'];
      const full = rows((await mdget(emu, args)).stdout).map((line) => line.split(','));
      const picked = await mdget(emu, [...args, '--columns', 'time,close,symbol', '--utc']);
      expect(picked.code).toBe(0);
      expect(picked.stdout.split('\n')[0]).toBe('time,close,symbol');
      // 2025-03-10 is daylight time in Chicago: UTC is five hours on
      const utcOf = (wall: string) =>
        `${new Date(Date.parse(`${wall.replace(' ', 'T')}:00Z`) + 5 * 3_600_000).toISOString().slice(0, 19)}Z`;
      expect(rows(picked.stdout)).toEqual(full.map((f) => `${utcOf(f[1]!)},${f[6]},${f[0]}`));
      const ndjson = await mdget(emu, [...args, '--columns', 'close,time', '--format', 'ndjson']);
      expect(Object.keys(JSON.parse(ndjson.stdout.split('\n')[0]!))).toEqual(['close', 'time']);
    });
  });

  it.each([
    ['time,nope', /^mdget: --columns: no column 'nope' here; the columns are symbol,time,/],
    ['time,,close', /^mdget: --columns 'time,,close': expected a comma list/],
    ['time,time', /^mdget: --columns: time is named twice/],
  ])(
    '%s: a one-line usage error naming --columns, exit 2, no request (with --dry-run too)',
    async (list, message) => {
      await withEmulator(CANARY_ACCOUNT, async (emu) => {
        const args = ['minutes', '^BTCUSD', '--start', '2025-03-10', '--columns', list];
        for (const extra of [[], ['--dry-run']]) {
          const result = await mdget(emu, [...args, ...extra]);
          expect([result.code, result.stdout]).toEqual([2, '']);
          expect(result.stderr).toMatch(message);
          expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        }
        expect(emu.requests).toHaveLength(0);
      });
    },
  );
});

describe('raw is never converted; bad zones', () => {
  it.each([
    [['--utc'], /^mdget: --utc: --format raw passes the service bytes through unchanged\n$/],
    [['--tz', 'Europe/London'], /^mdget: --tz: --format raw/],
    [['--columns', 'time'], /^mdget: --columns: --format raw/],
    [['--tz', 'Foo/Bar'], /^mdget: --tz 'Foo\/Bar': not an IANA time zone/],
  ])('--format raw %j: exit 2 naming the flag, no request', async (flags, message) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const result = await mdget(emu, [
        'ticks',
        'AAPL',
        '--start',
        '2025-03-13',
        '--format',
        'raw',
        ...flags,
      ]);
      expect([result.code, result.stdout]).toEqual([2, '']);
      expect(result.stderr).toMatch(message);
      expect(emu.requests).toHaveLength(0);
    });
  });

  it.each([
    [
      ['--tz', 'Foo/Bar'],
      /^mdget: --tz 'Foo\/Bar': not an IANA time zone such as America\/New_York or UTC\n$/,
    ],
    [['--source-tz', 'Foo/Bar'], /^mdget: --source-tz 'Foo\/Bar': not an IANA time zone/],
    [['--source-tz', 'Foo/Bar', '--end', 'today'], /^mdget: --source-tz 'Foo\/Bar': not an IANA time zone/],
    [['--source-tz', 'Foo/Bar', '--end', '2025-03-14T00:00Z'], /^mdget: --source-tz 'Foo\/Bar'/],
  ])('%j: exit 2 naming the flag, no request', async (flags, message) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const result = await mdget(emu, ['ticks', 'AAPL', '--start', '2025-03-13', ...flags]);
      expect([result.code, result.stdout]).toEqual([2, '']);
      expect(result.stderr).toMatch(message);
      expect(emu.requests).toHaveLength(0);
    });
  });
});

describe('gzip outputs', () => {
  const MINUTES = ['minutes', '^BTCUSD', '--start', '2025-03-10', '--end', '2025-03-12', '-q'];

  it('-o x.csv.gz and a --gzip template: gunzip -t accepts them and they decode to the plain output', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const plain = (await mdget(emu, MINUTES, dir)).stdoutBytes;
      const named = await mdget(emu, [...MINUTES, '-o', 'x.csv.gz'], dir);
      const templated = await mdget(emu, [...MINUTES, '-o', 'd/{symbol}-{date}.{ext}', '--gzip'], dir);
      expect([named.code, named.stdout, templated.code, templated.stdout]).toEqual([0, '', 0, '']);
      expect(dataFilesIn(join(dir, 'd'))).toEqual(['^BTCUSD-2025-03-10.csv.gz']);
      const files = [join(dir, 'x.csv.gz'), join(dir, 'd', '^BTCUSD-2025-03-10.csv.gz')];
      await run('gunzip', ['-t', ...files]);
      for (const file of files) expect(gunzipSync(readFileSync(file)).equals(plain)).toBe(true);
      // no temporary file left beside them
      expect(dataFilesIn(dir).sort()).toEqual(['d', 'x.csv.gz']);
    });
  });

  it('--skip-existing leaves a .gz file alone and sends no request for it', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const args = [...MINUTES, '-o', 'd/{symbol}-{date}.{ext}', '--gzip'];
      expect((await mdget(emu, args, dir)).code).toBe(0);
      const file = join(dir, 'd', '^BTCUSD-2025-03-10.csv.gz');
      const before = [readFileSync(file), statSync(file).mtimeMs];
      const sent = emu.requests.length;
      const again = await mdget(emu, [...args, '--skip-existing'], dir);
      expect(again.code).toBe(0);
      expect(emu.requests.length).toBe(sent);
      expect([readFileSync(file), statSync(file).mtimeMs]).toEqual(before);
      const refused = await mdget(emu, args, dir);
      expect(refused.code).toBe(6);
    });
  });

  it('--update resumes a .gz file at its last rows: decoded, the same bytes as one full download', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      mkdirSync(join(dir, 'out'));
      const full = (await mdget(emu, MINUTES, dir)).stdoutBytes;
      const first = ['minutes', '^BTCUSD', '--start', '2025-03-10', '--end', '2025-03-11T09:31', '-q'];
      expect((await mdget(emu, [...first, '-o', 'out/bars.csv.gz'], dir)).code).toBe(0);
      const sent = emu.requests.length;
      const update = await mdget(emu, [...MINUTES, '-o', 'out/bars.csv.gz', '--update'], dir);
      expect(update.code).toBe(0);
      expect(emu.requests[sent]?.query.start).toBe('20250311093000');
      const file = join(dir, 'out', 'bars.csv.gz');
      await run('gunzip', ['-t', file]);
      expect(gunzipSync(readFileSync(file)).equals(full)).toBe(true);
      expect(dataFilesIn(join(dir, 'out'))).toEqual(['bars.csv.gz']);
    });
  });
});

describe('--update on a file written with --utc or --tz', () => {
  it.each([
    [['--utc'], 'a.csv'],
    [['--tz', 'Asia/Kolkata', '--format', 'ndjson'], 'a.ndjson'],
    [['--utc', '--columns', 'close,time'], 'a.csv'],
    [['--tz', 'Europe/London'], 'a.csv.gz'],
  ])('%j %s: resumed at the wall clock of its last instant, no gap', async (flags, name) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const range = ['minutes', 'AAPL', '--start', '2025-03-10', '-q', ...flags];
      const full = (await mdget(emu, [...range, '--end', '2025-03-12'], dir)).stdoutBytes;
      expect((await mdget(emu, [...range, '--end', '2025-03-11T10:00', '-o', name], dir)).code).toBe(0);
      const sent = emu.requests.length;
      const update = await mdget(emu, [...range, '--end', '2025-03-12', '-o', name, '--update'], dir);
      expect(update.code).toBe(0);
      // the last row is 09:59 in New York (13:59Z): fetched again from there, not from 13:59 market time
      expect(emu.requests.slice(sent).map((r) => r.query.start)).toEqual(['20250311095900']);
      const bytes = readFileSync(join(dir, name));
      expect((name.endsWith('.gz') ? gunzipSync(bytes) : bytes).equals(full)).toBe(true);
    });
  });
});

describe('--dry-run shows each window in market time and UTC', () => {
  it('stdout: one redacted URL a line, nothing else; stderr: the window of each, just before it', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const result = await mdget(emu, [
        'ticks',
        'AAPL',
        '^BTCUSD',
        '--start',
        '2025-03-08',
        '--end',
        '2025-03-10',
        '--dry-run',
      ]);
      expect(result.code).toBe(0);
      const urls = result.stdout.trimEnd().split('\n');
      expect(urls).toHaveLength(4);
      for (const url of urls)
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/historical\/queryticks\.ashx\?\S+$/);
      expect(result.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/^mdget: transport: concurrency 4, retries 3, /),
        'mdget: AAPL 2025-03-08 00:00 → 2025-03-09 00:00 America/New_York = 2025-03-08T05:00Z → 2025-03-09T05:00Z',
        'mdget: AAPL 2025-03-09 00:00 → 2025-03-10 00:00 America/New_York = 2025-03-09T05:00Z → 2025-03-10T04:00Z',
        'mdget: ^BTCUSD 2025-03-08 00:00 → 2025-03-09 00:00 America/Chicago = 2025-03-08T06:00Z → 2025-03-09T06:00Z',
        'mdget: ^BTCUSD 2025-03-09 00:00 → 2025-03-10 00:00 America/Chicago = 2025-03-09T06:00Z → 2025-03-10T05:00Z',
        expect.stringMatching(/^mdget: the run may add continuations for windows that reach the cap/),
      ]);
      expect(emu.requests).toHaveLength(0);
      const quiet = await mdget(emu, ['ticks', 'AAPL', '--start', '2025-03-08', '--dry-run', '-q']);
      expect([quiet.code, quiet.stderr, quiet.stdout.trimEnd().split('\n')]).toEqual([
        0,
        '',
        [expect.any(String)],
      ]);
    });
  });

  it('an offset --start shows as the market wall clock sent and the instant given', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const result = await mdget(emu, [
        'minutes',
        '^BTCUSD',
        '--start',
        '2025-03-13T14:30:00Z',
        '--end',
        '2025-03-13T15:00:00Z',
        '--dry-run',
      ]);
      expect(result.stdout).toContain('&start=20250313093000&end=20250313100000');
      expect(result.stderr.split('\n')[1]).toBe(
        'mdget: ^BTCUSD 2025-03-13 09:30 → 2025-03-13 10:00 America/Chicago = 2025-03-13T14:30Z → 2025-03-13T15:00Z',
      );
    });
  });

  it('piped into a reader that stops early, it ends quietly with exit 0', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const { stdout } = await run(
        'bash',
        [
          '-c',
          'set -o pipefail; "$0" ticks AAPL --start 2015-01-01 --end 2025-01-01 --dry-run 2>err | head -1; wc -l < err',
          BIN,
        ],
        { cwd: dir, env: { PATH: nodePath(), ...envOf(emu), NO_COLOR: '1' } },
      );
      const [first, errLines] = stdout.trimEnd().split('\n');
      expect(first).toMatch(/queryticks\.ashx\?.*start=20150101&end=20150102/);
      // the listing stopped with its reader: far fewer than the 3,653 window lines of the whole plan
      expect(Number(errLines)).toBeLessThan(1000);
    });
  });
});
