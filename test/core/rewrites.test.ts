import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { flagNames } from '../../src/cli/flag-names.js';
import { createDispatcher } from '../../src/core/http/agent.js';
import { DEFAULT_RETRY } from '../../src/core/http/retry.js';
import type { DownloadOptions, OutputOptions } from '../../src/core/model/options.js';
import { resolve } from '../../src/core/plan/resolve.js';
import { runJob } from '../../src/core/run/run-job.js';
import { wallTimeOf } from '../../src/core/time/time-zones.js';
import { tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** Timestamps that mean the same thing everywhere, picked columns, compressed outputs. */
const wall = (iso: string) => new Date(`${iso}Z`);

/** What to download: a command and its query, as the library takes it. */
type Download = { name: 'minutes' | 'ticks'; query: DownloadOptions<'minutes'> | DownloadOptions<'ticks'> };

async function collect(
  emu: { env: Record<string, string> },
  download: Download,
  options: OutputOptions,
): Promise<string> {
  const chunks: Buffer[] = [];
  const stdout = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  const dispatcher = createDispatcher({ timeoutMs: 30_000 });
  try {
    const config = {
      username: emu.env.MDGET_USERNAME!,
      password: emu.env.MDGET_PASSWORD!,
      historicalUrl: emu.env.MDGET_HISTORICAL_URL!,
    };
    const job = resolve(
      download.name,
      { ...download.query, force: true, maxRows: 1e9, concurrency: 1, ...options },
      { config, now: new Date(), names: flagNames },
    );
    const result = await runJob(job, { dispatcher, retry: DEFAULT_RETRY, stdout, names: flagNames, config });
    if (result.failure) throw result.failure;
  } finally {
    await dispatcher.destroy();
  }
  return Buffer.concat(chunks).toString();
}

const minutes = (start: string, end: string, order: 'asc' | 'desc' = 'asc'): Download => ({
  name: 'minutes',
  query: { symbols: ['^BTCUSD'], start: wall(start), end: wall(end), order },
});
const times = (csv: string) =>
  csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[1]!);

describe('--utc and --tz across daylight saving (^BTCUSD trades through both changes, Central time)', () => {
  it('spring forward: the missing hour never appears, UTC instants run on without a gap', async () => {
    await withEmulator({}, async (emu) => {
      const raw = times(await collect(emu, minutes('2025-03-09T01:58', '2025-03-09T03:02'), {}));
      expect(raw).toEqual(['2025-03-09 01:58', '2025-03-09 01:59', '2025-03-09 03:00', '2025-03-09 03:01']);
      const utc = times(
        await collect(emu, minutes('2025-03-09T01:58', '2025-03-09T03:02'), { timeZone: 'utc' }),
      );
      expect(utc).toEqual([
        '2025-03-09T07:58:00Z',
        '2025-03-09T07:59:00Z',
        '2025-03-09T08:00:00Z',
        '2025-03-09T08:01:00Z',
      ]);
      const eastern = times(
        await collect(emu, minutes('2025-03-09T01:58', '2025-03-09T03:02'), { timeZone: 'America/New_York' }),
      );
      // Eastern moved an hour before Central did (07:00Z): the same instants are daylight time there
      expect(eastern).toEqual([
        '2025-03-09T03:58:00-04:00',
        '2025-03-09T03:59:00-04:00',
        '2025-03-09T04:00:00-04:00',
        '2025-03-09T04:01:00-04:00',
      ]);
    });
  });

  it('fall back: the repeated hour keeps its order, daylight time first, in ascending and descending order', async () => {
    await withEmulator({}, async (emu) => {
      const raw = times(await collect(emu, minutes('2025-11-02T00:59', '2025-11-02T02:01'), {}));
      expect(raw.filter((t) => t === '2025-11-02 01:30')).toHaveLength(2); // the hour is there twice
      const central = times(
        await collect(emu, minutes('2025-11-02T00:59', '2025-11-02T02:01'), { timeZone: 'America/Chicago' }),
      );
      expect(central.filter((t) => t.startsWith('2025-11-02T01:30'))).toEqual([
        '2025-11-02T01:30:00-05:00',
        '2025-11-02T01:30:00-06:00',
      ]);
      const utc = times(
        await collect(emu, minutes('2025-11-02T00:59', '2025-11-02T02:01'), { timeZone: 'utc' }),
      );
      const instants = utc.map((t) => Date.parse(t));
      expect(instants.every((t, i) => i === 0 || t - instants[i - 1]! === 60_000)).toBe(true);
      const desc = times(
        await collect(emu, minutes('2025-11-02T00:59', '2025-11-02T02:01', 'desc'), { timeZone: 'utc' }),
      );
      expect(desc).toEqual([...utc].reverse());
      // the same rule for Eastern, given as the source zone
      const fromEastern = times(
        await collect(emu, minutes('2025-11-02T00:59', '2025-11-02T02:01'), {
          timeZone: 'utc',
          sourceTimeZone: 'America/New_York',
        }),
      );
      expect(fromEastern[1]).toBe('2025-11-02T05:00:00Z');
      expect(new Set(fromEastern).size).toBe(fromEastern.length);
    });
  });

  it('ticks through the repeated hour keep increasing; --utc round-trips to the service wall clock', async () => {
    await withEmulator({}, async (emu) => {
      const plan: Download = {
        name: 'ticks',
        query: { symbols: ['^BTCUSD'], start: wall('2025-11-02T00:50'), end: wall('2025-11-02T02:10') },
      };
      const raw = times(await collect(emu, plan, {}));
      const utc = times(await collect(emu, plan, { timeZone: 'utc' }));
      expect(utc).toHaveLength(raw.length);
      const instants = utc.map((t) => Date.parse(t));
      expect(instants.every((t, i) => i === 0 || t >= instants[i - 1]!)).toBe(true);
      const back = utc.map((t) =>
        wallTimeOf(new Date(t), 'America/Chicago').toISOString().replace('T', ' ').slice(0, 23),
      );
      expect(back).toEqual(raw);
    });
  });
});

describe('--columns and gzip outputs', () => {
  it('--columns picks and orders columns, in the header and every row', async () => {
    await withEmulator({}, async (emu) => {
      const csv = await collect(emu, minutes('2025-03-10T10:00', '2025-03-10T10:03'), {
        columns: ['time', 'close', 'symbol'],
      });
      expect(csv.split('\n').slice(0, 2)).toEqual([
        'time,close,symbol',
        expect.stringMatching(/^2025-03-10 10:00,[\d.]+,\^BTCUSD$/),
      ]);
      await expect(
        collect(emu, minutes('2025-03-10T10:00', '2025-03-10T10:03'), { columns: ['tim'] }),
      ).rejects.toMatchObject({
        code: 'MDGET_USAGE',
        message: expect.stringMatching(/^--columns: no column 'tim' here; the columns are symbol,time,/),
      });
      await expect(
        collect(emu, minutes('2025-03-10T10:00', '2025-03-10T10:03'), { format: 'raw', timeZone: 'utc' }),
      ).rejects.toMatchObject({ code: 'MDGET_USAGE' });
    });
  });

  it('a .gz output and a --gzip template are gzip that decodes to the plain bytes', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const plan = minutes('2025-03-10T00:00', '2025-03-12T00:00');
      const plain = await collect(emu, plan, {});
      await collect(emu, plan, { output: join(dir, 'bars.csv.gz') });
      await collect(emu, plan, { output: join(dir, '{symbol}-{date}.{ext}'), gzip: true });
      expect(gunzipSync(readFileSync(join(dir, 'bars.csv.gz'))).toString()).toBe(plain);
      const files = readdirSync(dir)
        .filter((name) => name.startsWith('^BTCUSD'))
        .sort();
      expect(files).toEqual(['^BTCUSD-2025-03-10.csv.gz']);
      execFileSync('gunzip', ['-t', join(dir, files[0]!), join(dir, 'bars.csv.gz')]);
      expect(gunzipSync(readFileSync(join(dir, files[0]!))).toString()).toBe(plain);
    });
  });
});

describe('--update on a gzip file', () => {
  it('resumes at the last rows, recompressed: byte-equal (decompressed) to one full download', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const file = join(dir, 'bars.csv.gz');
      const plain = await collect(emu, minutes('2025-03-10T00:00', '2025-03-12T00:00'), {});
      await collect(emu, minutes('2025-03-10T00:00', '2025-03-11T09:31'), { output: file });
      const before = emu.requests.length;
      await collect(emu, minutes('2025-03-10T00:00', '2025-03-12T00:00'), {
        output: file,
        update: true,
        force: false,
      });
      expect((emu.requests as { query: Record<string, string> }[])[before]?.query.start).toBe(
        '20250311093000',
      );
      expect(gunzipSync(readFileSync(file)).toString()).toBe(plain);
      execFileSync('gunzip', ['-t', file]);
      expect(readdirSync(dir)).toEqual(['bars.csv.gz']);
    });
  });
});
