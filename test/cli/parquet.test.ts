import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_COLORS } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { dataFilesIn } from '../helpers/cli-env.js';
import { parseCsv, readParquet, sameValue, typeOf } from '../helpers/parquet.js';
import { runCli, runMain, runShell, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** The types the columns of a download must have, as users expect them (docs/parquet.md). */
const TYPES: Record<string, string> = {
  symbol: 'STRING',
  date: 'DATE',
  expiration: 'DATE',
  trading_day: 'INT32',
  price: 'DOUBLE',
  open: 'DOUBLE',
  high: 'DOUBLE',
  low: 'DOUBLE',
  close: 'DOUBLE',
  strike: 'DOUBLE',
  size: 'INT64',
  volume: 'INT64',
  open_interest: 'INT64',
};

const TICKS = ['ticks', 'AAPL', '--start', '2025-03-13'];

/**
 * Downloads `args` as csv (stdout) and as Parquet (a file), and checks the file against the csv: the same
 * columns and rows, each value equal once parsed, each column of the expected type; returns the file read.
 */
async function sameAsCsv(args: string[], env: Record<string, string>, csvFlags = ['--format', 'csv']) {
  const dir = tempDir();
  const [csv, pq] = await Promise.all([
    runMain([...args, ...csvFlags, '-q'], { env, cwd: dir }),
    runMain([...args, '-o', 'out.parquet', '-q'], { env, cwd: dir }),
  ]);
  expect([csv.code, csv.stderr, pq.code, pq.stderr]).toEqual([0, '', 0, '']);
  const [header = [], ...lines] = parseCsv(csv.stdout);
  const file = await readParquet(join(dir, 'out.parquet'));
  expect(file.names).toEqual(header);
  expect(file.rows.length).toBe(lines.length);
  expect(lines.length).toBeGreaterThan(0);
  const types = header.map((name) => typeOf(file.metadata, name));
  const wrong: string[] = [];
  lines.forEach((line, r) => {
    header.forEach((name, c) => {
      const value = file.rows[r]?.[name];
      if (!sameValue(value, line[c] ?? '', types[c] ?? ''))
        wrong.push(`row ${r} ${name}: ${String(value)} ≠ ${line[c]}`);
    });
  });
  expect(wrong.slice(0, 5)).toEqual([]);
  return { file, types: Object.fromEntries(header.map((name, c) => [name, types[c]])) };
}

describe('--format parquet reads back as the csv of the same download', () => {
  it.each([
    ['ticks', TICKS, 'America/New_York'],
    ['minutes, two symbols', ['minutes', 'AAPL', 'MSFT', '--start', '2025-03-10'], 'America/New_York'],
    ['minutes --nearby', ['minutes', 'ES', '--nearby', '--start', '2025-03-10'], 'America/Chicago'],
    ['minutes --form-t', ['minutes', 'AAPL', '--form-t', '--start', '2025-03-10'], 'America/New_York'],
    ['eod', ['eod', 'AAPL', '--start', '2025-01-01', '--end', '2025-03-01'], undefined],
    ['events', ['events', 'AAPL', '--start', '2024-01-01', '--end', '2025-03-01'], undefined],
    ['futopts', ['futopts', 'ES', '--date', '2025-03-10'], undefined],
    ['daterange', ['daterange', 'minutes', 'AAPL', 'MSFT'], undefined],
  ])('%s', async (_name, args, zone) => {
    await withEmulator({}, async (emu) => {
      const { file, types } = await sameAsCsv(args as string[], emu.env);
      for (const [name, type] of Object.entries(types)) {
        const expected = name === 'time' ? 'TIMESTAMP(wall,MILLIS)' : (TYPES[name] ?? 'STRING');
        expect([name, type]).toEqual([name, expected]);
      }
      // the zone of the times, when there are times
      expect(file.keyValues['mdget.time_zone']).toBe(zone);
      expect(file.metadata.row_groups[0]?.columns[0]?.meta_data?.codec).toBe('ZSTD');
    });
  });

  it('--utc and --tz write instants (TIMESTAMP adjusted to UTC) and name the zone', async () => {
    await withEmulator({}, async (emu) => {
      const utc = await sameAsCsv([...TICKS, '--utc'], emu.env);
      expect([utc.types.time, utc.file.keyValues['mdget.time_zone']]).toEqual([
        'TIMESTAMP(UTC,MILLIS)',
        'UTC',
      ]);
      const tz = await sameAsCsv([...TICKS, '--tz', 'Europe/Berlin'], emu.env);
      expect([tz.types.time, tz.file.keyValues['mdget.time_zone']]).toEqual([
        'TIMESTAMP(UTC,MILLIS)',
        'Europe/Berlin',
      ]);
      // one instant, whatever the zone it was shown in
      expect(tz.file.rows[0]?.time).toEqual(utc.file.rows[0]?.time);
    });
  });

  it.each([['instruments'], ['symbols'], ['spread_legs']])('instruments --table %s', async (table) => {
    await withEmulator({}, async (emu) => {
      const { file } = await sameAsCsv(['instruments', 'CME', '--table', table], emu.env);
      expect(file.keyValues['mdget.table']).toBe(table);
    });
  });
});

describe('Parquet outputs: compression, templates, refusals', () => {
  it('--compression picks the codec; a wrong one or a wrong format is one line naming the flag', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const run = (args: string[]) => runMain(args, { env: emu.env, cwd: dir });
      const codecs = { snappy: 'SNAPPY', gzip: 'GZIP', none: 'UNCOMPRESSED' };
      const refused = [
        [...TICKS, '-o', 'x.parquet', '--compression', 'lz4'],
        [...TICKS, '--compression', 'zstd'],
        [...TICKS, '-o', 'x.parquet', '--format', 'csv'],
        [...TICKS, '-o', 'x.parquet.gz'],
        [...TICKS, '-o', 'x.parquet', '--gzip'],
        ['futopts', 'ES', '--format', 'parquet', '--json'],
        ['exchanges', '-o', 'x.parquet'],
      ];
      // each refused before any request
      const refusals = await Promise.all(refused.map(run));
      expect(emu.requests).toEqual([]);
      const written = await Promise.all(
        Object.keys(codecs).map((c) => run([...TICKS, '-o', `${c}.parquet`, '--compression', c])),
      );
      expect(written.map((r) => r.code)).toEqual([0, 0, 0]);
      for (const [codec, name] of Object.entries(codecs)) {
        const file = await readParquet(join(dir, `${codec}.parquet`));
        expect(file.metadata.row_groups[0]?.columns.map((c) => c.meta_data?.codec)).toEqual(
          file.names.map(() => name),
        );
      }
      expect(refusals.map((r) => [r.code, r.stderr.split('\n').length])).toEqual(refused.map(() => [2, 2]));
      expect(refusals[0]?.stderr).toBe(
        "mdget: option '--compression <codec>' argument 'lz4' is invalid. Allowed choices are zstd, snappy, gzip, none.\n",
      );
      expect(refusals[1]?.stderr).toBe('mdget: --compression applies to --format parquet, not csv\n');
      expect(dataFilesIn(dir).sort()).toEqual(['gzip.parquet', 'none.parquet', 'snappy.parquet']);
    });
  });

  it('a Hive-style template writes one file per symbol and day', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const template = 'lake/symbol={symbol}/date={date}.parquet';
      const run = await runMain(
        ['ticks', 'AAPL', 'MSFT', '--start', '2025-03-12', '--end', '2025-03-14', '-o', template, '-q'],
        { env: emu.env, cwd: dir },
      );
      expect([run.code, run.stderr]).toEqual([0, '']);
      const files = ['AAPL', 'MSFT'].flatMap((s) =>
        ['2025-03-12', '2025-03-13'].map((d) => `lake/symbol=${s}/date=${d}.parquet`),
      );
      for (const path of files) {
        const file = await readParquet(join(dir, path));
        const symbol = path.split('/')[1]?.slice('symbol='.length);
        expect(new Set(file.rows.map((row) => row.symbol))).toEqual(new Set([symbol]));
      }
    });
  });

  it('to stdout: a Parquet file when piped, refused on a terminal', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const piped = await runShell(
        `$MDGET ${TICKS.join(' ')} --format parquet -q > ${dir}/piped.parquet`,
        emu.env,
      );
      expect(piped.code).toBe(0);
      const file = await readParquet(join(dir, 'piped.parquet'));
      expect(file.rows.length).toBeGreaterThan(100);
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let errors = '';
      stderr.on('data', (chunk) => (errors += chunk));
      const code = await main([...TICKS, '--format', 'parquet'], {
        stdout,
        stderr,
        stdin: new PassThrough(),
        stdoutIsTTY: true,
        stderrIsTTY: false,
        env: emu.env,
        cwd: dir,
        color: NO_COLORS,
      });
      expect([code, errors]).toEqual([
        2,
        'mdget: Parquet output would go to the terminal: write it to a file with -o, or pipe it\n',
      ]);
    });
  });
});

describe('Parquet keeps the guarantees of the csv outputs', () => {
  it('a failed download leaves the old file and no temporary file', async () => {
    await withEmulator({ faults: [{ kind: 'reset', afterBytes: 3000 }] }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'x.parquet'), 'old');
      const run = await runMain([...TICKS, '-o', 'x.parquet', '--force', '-q', '--retries', '0'], {
        env: emu.env,
        cwd: dir,
      });
      expect(run.code).toBe(5);
      expect(readdirSync(dir)).toEqual(['x.parquet']);
      expect(readFileSync(join(dir, 'x.parquet'), 'utf8')).toBe('old');
    });
  });

  it('--skip-existing, --update (rewritten: the old rows, then the new) and --report', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const env = emu.env;
      const eod = ['eod', 'AAPL', '--start', '2025-01-01', '-q'];
      expect(
        (await runMain([...eod, '--end', '2025-02-01', '-o', 'e.parquet'], { env, cwd: dir })).code,
      ).toBe(0);
      const first = await readParquet(join(dir, 'e.parquet'));
      const before = statSync(join(dir, 'e.parquet')).mtimeMs;
      const skip = await runMain([...eod, '--end', '2025-03-01', '-o', 'e.parquet', '--skip-existing'], {
        env,
        cwd: dir,
      });
      expect([skip.code, statSync(join(dir, 'e.parquet')).mtimeMs]).toEqual([0, before]);
      const update = await runMain(
        [...eod, '--end', '2025-03-01', '-o', 'e.parquet', '--update', '--report', 'r.json'],
        { env, cwd: dir },
      );
      expect([update.code, update.stderr]).toEqual([0, '']);
      const updated = await readParquet(join(dir, 'e.parquet'));
      const whole = await sameAsCsv([...eod, '--end', '2025-03-01'], env);
      expect(updated.rows).toEqual(whole.file.rows);
      expect(updated.rows.slice(0, first.rows.length - 1)).toEqual(first.rows.slice(0, -1));
      const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
      expect(report.exitCode).toBe(0);
      expect(JSON.stringify(report)).toContain('e.parquet');
      expect(dataFilesIn(dir).sort()).toEqual(['e.parquet', 'r.json']);
    });
  });
});

describe('the Parquet writer is loaded only when Parquet is asked for', () => {
  /** Runs mdget with a loader hook that logs every module specifier naming a Parquet or zstd package. */
  async function loaded(args: string[], env: Record<string, string>, dir: string): Promise<string[]> {
    const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(log, '');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (/^(hyparquet|@bokuweb)/.test(specifier)) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
  return next(specifier, context);
}`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    const run = await runCli(args, { env: { ...env, NODE_OPTIONS: `--import ${register}` }, cwd: dir });
    expect(run.code).toBe(0);
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  }

  it('--help and a csv download load none of it; a Parquet download does', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      expect(await loaded(['--help'], emu.env, dir)).toEqual([]);
      expect(await loaded([...TICKS, '-o', 'x.csv'], emu.env, dir)).toEqual([]);
      expect(await loaded([...TICKS, '-o', 'x.parquet'], emu.env, dir)).toContain('hyparquet-writer');
      expect(existsSync(join(dir, 'x.parquet'))).toBe(true);
    });
  });
});

describe('the library writes Parquet too', () => {
  it('download() to a .parquet name, or to a stream with format parquet', async () => {
    await withEmulator({}, async (emu) => {
      const { createClient } = await import('../../src/index.js');
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      const dir = tempDir();
      const query = client.eod({ symbols: 'AAPL', start: '2025-01-01', end: '2025-03-01' });
      await query.download(join(dir, 'e.parquet'), { compression: 'snappy' });
      const file = await readParquet(join(dir, 'e.parquet'));
      expect([file.rows.length, file.metadata.row_groups[0]?.columns[0]?.meta_data?.codec]).toEqual([
        40,
        'SNAPPY',
      ]);
      const { createWriteStream } = await import('node:fs');
      const stream = createWriteStream(join(dir, 'stream.parquet'));
      await query.download(stream, { format: 'parquet' });
      await new Promise((resolve) => stream.end(resolve));
      expect((await readParquet(join(dir, 'stream.parquet'))).rows).toEqual(file.rows);
      await expect(
        query.download(join(dir, 'x.parquet'), { compression: 'lz4' as 'zstd' }),
      ).rejects.toMatchObject({
        code: 'MDGET_USAGE',
        message: "compression 'lz4': use one of zstd, snappy, gzip, none",
      });
    });
  });
});
