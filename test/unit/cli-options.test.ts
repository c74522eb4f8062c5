import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type CommandName, commandSpec, type DownloadCommandName } from '../../src/cli/command-table.js';
import { DOWNLOAD_MAPPERS } from '../../src/cli/commands/download-options.js';
import { flagNames } from '../../src/cli/flag-names.js';
import { NO_COLORS } from '../../src/cli/io.js';
import { createLog } from '../../src/cli/log.js';
import { buildProgram } from '../../src/cli/program.js';
import { libraryName, OPTION_ROWS, type OptionRow } from '../../src/core/model/option-schema.js';
import type { DownloadOptions } from '../../src/core/model/options.js';
import { resolve } from '../../src/core/plan/resolve.js';

const NOW = new Date('2025-03-14T15:00:00Z');
const stderr = new PassThrough();
const ctx = {
  io: {
    stdout: new PassThrough(),
    stderr,
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: {},
    cwd: '.',
    color: NO_COLORS,
  },
  signal: new AbortController().signal,
  now: NOW,
  clock: () => NOW,
  secrets: [],
  log: createLog('text', { stderr, secrets: [] }),
  version: '0.0.0',
  argv: [],
  exitCodeOf: () => 0,
};
const CONFIG = {
  username: 'u',
  password: 'p',
  historicalUrl: 'http://h.test',
  futuresOptionsUrl: 'http://f.test',
};

/** What commander hands the action for argv: the program is built from the table, the action captured. */
async function parse(argv: string[]) {
  const spec = commandSpec(argv[0] ?? '');
  if (!spec) throw new Error(`no command ${argv[0]}`);
  let parsed: { name: CommandName; args: readonly unknown[]; flags: Record<string, unknown> } | undefined;
  const program = buildProgram(ctx, [spec], undefined, async (name, args, flags) => {
    parsed = { name, args, flags };
  });
  await program.parseAsync(argv, { from: 'user' });
  if (!parsed) throw new Error('no action ran');
  return parsed;
}

/** argv → the library's options of a download command, its rules checked by resolve as the CLI's run does. */
async function optionsFor(argv: string[]): Promise<DownloadOptions> {
  const { name, args, flags } = await parse(argv);
  const symbols = args.at(-1) as string[];
  const database = typeof args[0] === 'string' ? args[0] : undefined;
  const mapper = DOWNLOAD_MAPPERS[name as DownloadCommandName] as (f: unknown, i: unknown) => DownloadOptions;
  const options = mapper(flags, { symbols, ...(database ? { database } : {}) });
  resolve(name as DownloadCommandName, options, { config: CONFIG, now: NOW, names: flagNames });
  return options;
}

/** A value a row's flag takes (none for a switch). */
function sampleValue(row: OptionRow): string[] {
  if (!row.value) return [];
  const byKind: Partial<Record<string, string>> = {
    int: String((row.min ?? 0) + 1),
    duration: '2s',
    rate: '3',
    list: 'a,b',
    shard: '2/3',
  };
  return [
    row.choices?.at(-1) ??
      byKind[row.kind ?? ''] ??
      (row.value === 'zone' ? 'Europe/London' : `v-${row.flag}`),
  ];
}

describe('argv → options (flags declared once, mapped to core options)', () => {
  it.each<[string[], object]>([
    [['ticks', 'ESM25'], { symbols: ['ESM25'], header: true, fsync: true }],
    [
      [
        'ticks',
        'ESM25',
        'NQM25',
        '--start',
        '2025-03-13',
        '--end',
        '20250315',
        '--order',
        'desc',
        '--maxrecords',
        '5',
      ],
      {
        symbols: ['ESM25', 'NQM25'],
        start: '2025-03-13',
        end: '20250315',
        order: 'desc',
        maxrecords: 5,
      },
    ],
    [
      ['ticks', 'AAPL', '--start', '2025-03-14T09:30', '--session-filter', '+T', '--trend'],
      { start: '2025-03-14T09:30', sessionFilter: '+T', trend: true },
    ],
    [['ticks', 'AAPL', '--start', 'yesterday'], { start: 'yesterday' }],
    [
      ['ticks', 'X', '-o', 'x.csv', '--force', '--no-header', '--no-fsync'],
      { output: 'x.csv', force: true, header: false, fsync: false },
    ],
    [['ticks', 'X', '--utc'], { timeZone: 'utc' }],
    [
      ['ticks', 'X', '--tz', 'Europe/London', '--source-tz', 'America/Chicago'],
      { timeZone: 'Europe/London', sourceTimeZone: 'America/Chicago' },
    ],
    [
      ['ticks', 'X', '--columns', 'time, price,size', '--gzip'],
      { columns: ['time', 'price', 'size'], gzip: true },
    ],
    [
      ['ticks', 'X', '--window', '1h', '--shard', '2/4', '--concurrency', '8'],
      { windowMs: 3_600_000, shard: { index: 2, count: 4 }, concurrency: 8 },
    ],
    [
      ['ticks', 'X', '-o', 'f.csv', '--update', '--start', '2025-03-13', '--temp-dir', '/tmp'],
      { update: true, tempDir: '/tmp' },
    ],
    [['minutes', 'ES', '--nearby', '--interval', '5'], { variant: 'nearby', interval: 5 }],
    [['minutes', 'AAPL', '--form-t'], { variant: 'form-t' }],
    [
      [
        'eod',
        'ZC*1',
        '--period',
        'weekly',
        '--nearest',
        '--volume',
        'sum',
        '--days-to-expiration',
        '5',
        '--adjust-splits',
        'false',
      ],
      { period: 'weekly', nearest: true, volume: 'sum', daysToExpiration: 5, adjustSplits: 'false' },
    ],
    [
      ['events', 'AAPL', 'MSFT', '--splits', '--start', '2020-01-01'],
      { symbols: ['AAPL', 'MSFT'], splits: true, start: '2020-01-01' },
    ],
    [['daterange', 'eod', 'AAPL', 'ZCN25'], { database: 'eod', symbols: ['AAPL', 'ZCN25'] }],
    [
      ['futopts', 'ZC', 'CL', '--json', '-o', 'fo-{symbol}.json'],
      { json: true, symbols: ['ZC', 'CL'], output: 'fo-{symbol}.json' },
    ],
    [['futopts', 'ZC', '--date', '2025-03-13'], { date: '2025-03-13' }],
  ])('%j', async (argv, expected) => {
    expect(await optionsFor(argv)).toMatchObject(expected);
  });

  it('leaves what was not given unset, so core tells "not given" from a default', async () => {
    const options = await optionsFor(['ticks', 'X']);
    for (const key of ['output', 'format', 'force', 'concurrency', 'timeZone', 'columns', 'update', 'shard'])
      expect(options).not.toHaveProperty(key);
  });

  it.each<[string[], RegExp]>([
    [['ticks', 'X', '--utc', '--tz', 'UTC'], /--utc and --tz exclude each other/],
    [['ticks', 'X', '--tz', 'Mars/Olympus'], /--tz 'Mars\/Olympus': not an IANA time zone/],
    [['ticks', 'X', '--source-tz', 'nowhere'], /--source-tz 'nowhere'/],
    [['ticks', 'X', '--columns', 'time,,price'], /--columns 'time,,price': expected a comma list/],
    [['ticks', 'X', '--columns', 'time,time'], /--columns: time is named twice/],
    [
      ['ticks', 'X', '--utc', '--format', 'raw'],
      /--utc: --format raw passes the service bytes through unchanged/,
    ],
    [['ticks', 'X', '--force', '--skip-existing'], /--skip-existing and --force exclude each other/],
    [['events', 'X', '--window', '1d'], /--window applies to ticks, minutes and eod/],
    [['minutes', 'X', '--nearby', '--form-t'], /--nearby and --form-t exclude each other/],
    [['eod', 'X', '--nearest', '--continue'], /--nearest and --continue exclude each other/],
    [['futopts', 'ZC', '--json', '--format', 'ndjson'], /use --format raw or json with it, not ndjson/],
    [
      ['futopts', 'ZC', '--json', '--tz', 'UTC'],
      /--json streams the service JSON through unchanged: --utc, --tz/,
    ],
    [['futopts', 'ZC', 'CL', '--json'], /needs an output template/],
    [['ticks', 'X', '--timeout', '0'], /--timeout '0': expected a duration/],
    [['ticks', 'X', '--rate', 'fast'], /--rate 'fast': expected requests per second/],
    [['ticks', 'X', '--concurrency', '65'], /--concurrency takes a whole number from 1 to 64/],
    [['ticks', 'X', '--shard', '0/4'], /--shard '0\/4': expected i\/n/],
  ])('%j is refused: %s', async (argv, message) => {
    await expect(optionsFor(argv)).rejects.toThrow(message);
  });

  it("puts every settings row's flag that ticks takes under the row's library name", async () => {
    /** Settings rows whose flag the CLI reads elsewhere than the mapper, so they are in no options. */
    const ELSEWHERE: Record<string, string> = {
      'max-rows': 'the configuration, with MDGET_MAX_ROWS',
      'metrics-file': 'the metrics settings, with MDGET_METRICS_FILE',
      'metrics-job': 'the metrics settings',
    };
    /** What the mapper makes of a flag's value when it is not the value itself. */
    const TRANSFORMED: Record<string, unknown> = { utc: 'utc' };
    const taken = new Set<string>(commandSpec('ticks')?.options);
    const rows = (OPTION_ROWS as readonly OptionRow[]).filter((row) => 'settings' in row.library);
    expect(rows.filter((row) => !taken.has(row.flag))).toEqual([]);
    const base = (await parse(['ticks', 'X'])).flags;
    for (const row of rows) {
      const { flags } = await parse(['ticks', 'X', `--${row.flag}`, ...sampleValue(row)]);
      // the one key the flag changed, found without the mapper's own flagKeyOf
      const changed = Object.keys(flags).filter((key) => flags[key] !== base[key]);
      expect(changed, row.flag).toHaveLength(1);
      const options: Record<string, unknown> = { ...DOWNLOAD_MAPPERS.ticks(flags, { symbols: ['X'] }) };
      const name = libraryName(row) ?? '';
      if (ELSEWHERE[row.flag]) expect(options, row.flag).not.toHaveProperty(name);
      else expect(options[name], row.flag).toEqual(TRANSFORMED[row.flag] ?? flags[changed[0] ?? '']);
    }
  });

  it('reads durations in their units and a bare number as seconds', async () => {
    for (const [text, ms] of [
      ['45', 45_000],
      ['500ms', 500],
      ['2m', 120_000],
      ['7d', 604_800_000],
      ['1w', 604_800_000],
    ] as const)
      expect(await optionsFor(['minutes', 'X', '--window', text])).toMatchObject({ windowMs: ms });
    expect((await parse(['ticks', 'X', '--timeout', '30s'])).flags.timeout).toBe(30_000);
    expect((await parse(['ticks', 'X', '--rate', '120/m'])).flags.rate).toBe(2);
  });

  it('gives the reference commands their own --format and -o, and accepts the configuration flags of others', async () => {
    expect(
      (await parse(['exchanges', '--format', 'xml', '--report', 'r.json', '--dry-run'])).flags,
    ).toMatchObject({
      format: 'xml',
      report: 'r.json',
      dryRun: true,
    });
    expect(
      (await parse(['instruments', 'CME', '--format', 'sqlite', '-o', 'x.db', '--dry-run'])).flags,
    ).toMatchObject({
      format: 'sqlite',
      output: 'x.db',
    });
    expect((await parse(['exchanges', '--username', 'u'])).flags).toMatchObject({ username: 'u' });
    await expect(parse(['exchanges', '--format', 'sqlite'])).rejects.toMatchObject({
      code: 'commander.invalidArgument',
    });
  });
});
