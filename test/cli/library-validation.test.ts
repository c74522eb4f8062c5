import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// the package's own entry, as `import … from 'mdget'` finds it (npm test builds it first)
const { createClient, isMdgetError }: typeof import('../../src/index.js') = await import(
  new URL('../../dist/index.js', import.meta.url).href
);

type Client = ReturnType<typeof createClient>;

/** One bad call of the library, the CLI arguments that make the same mistake, and the option to name. */
interface Case {
  what: string;
  call: (client: Client, dir: string) => Promise<unknown>;
  cli: string[];
  option: string;
}

const at = (iso: string) => new Date(`${iso}T00:00:00Z`);
const drain = async (query: AsyncIterable<unknown>) => {
  for await (const _ of query) {
    // nothing: a bad query rejects before its first record
  }
};

const CASES: Case[] = [
  {
    what: 'an invalid Date',
    call: (c) => drain(c.eod({ symbols: 'AAPL', start: new Date('garbage') })),
    cli: ['eod', 'AAPL', '--start', 'garbage'],
    option: 'start',
  },
  {
    what: 'a date string of no accepted form',
    call: (c) => drain(c.ticks({ symbols: 'AAPL', start: '2025-13-45' })),
    cli: ['ticks', 'AAPL', '--start', '2025-13-45'],
    option: 'start',
  },
  {
    what: 'an end before the start',
    call: (c) => drain(c.ticks({ symbols: 'AAPL', start: '2025-03-14', end: '2025-03-13' })),
    cli: ['ticks', 'AAPL', '--start', '2025-03-14', '--end', '2025-03-13'],
    option: 'end',
  },
  {
    what: 'interval 0',
    call: (c) => drain(c.minutes({ symbols: 'AAPL', start: at('2025-03-14'), interval: 0 })),
    cli: ['minutes', 'AAPL', '--start', '2025-03-14', '--interval', '0'],
    option: 'interval',
  },
  {
    what: 'maxrecords 0',
    call: (c) => drain(c.minutes({ symbols: 'AAPL', maxrecords: 0 })),
    cli: ['minutes', 'AAPL', '--maxrecords', '0'],
    option: 'maxrecords',
  },
  {
    what: 'an order that is not asc or desc',
    call: (c) => drain(c.ticks({ symbols: 'AAPL', order: 'sideways' as 'asc' })),
    cli: ['ticks', 'AAPL', '--order', 'sideways'],
    option: 'order',
  },
  {
    what: 'days to expiration past 60',
    call: (c) => drain(c.eod({ symbols: 'ZC*1', daysToExpiration: 61 })),
    cli: ['eod', 'ZC*1', '--days-to-expiration', '61'],
    option: 'daysToExpiration',
  },
  {
    what: 'nearest with continue',
    call: (c) => drain(c.eod({ symbols: 'ZC*1', nearest: true, continue: true })),
    cli: ['eod', 'ZC*1', '--nearest', '--continue'],
    option: 'nearest',
  },
  {
    what: 'a session filter of no accepted form',
    call: (c) => drain(c.ticks({ symbols: 'AAPL', sessionFilter: 'a b' })),
    cli: ['ticks', 'AAPL', '--session-filter', 'a b'],
    option: 'sessionFilter',
  },
  {
    what: 'no symbol',
    call: (c) => drain(c.ticks({ symbols: [] })),
    cli: ['ticks', '--symbols-file', '/dev/null'],
    option: 'symbols',
  },
  {
    what: 'a symbol with a comma',
    call: (c) => drain(c.events({ symbols: ['AAPL,MSFT'] })),
    cli: ['events', 'AAPL,MSFT'],
    option: 'symbol',
  },
  {
    what: 'concurrency 0',
    call: (c, dir) => c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { concurrency: 0 }),
    cli: ['ticks', 'AAPL', '--concurrency', '0'],
    option: 'concurrency',
  },
  {
    what: 'concurrency past the limit',
    call: (c, dir) => c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { concurrency: 65 }),
    cli: ['ticks', 'AAPL', '--concurrency', '65'],
    option: 'concurrency',
  },
  {
    what: 'force with skip-existing',
    call: (c, dir) =>
      c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { force: true, skipExisting: true }),
    cli: ['ticks', 'AAPL', '-o', 'x.csv', '--force', '--skip-existing'],
    option: 'skipExisting',
  },
  {
    what: 'update without a start',
    call: (c, dir) => c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { update: true }),
    cli: ['ticks', 'AAPL', '-o', 'x.csv', '--update'],
    option: 'update',
  },
  {
    what: 'update of a stream',
    call: (c) =>
      c.ticks({ symbols: 'AAPL', start: '2025-03-13' }).download(new PassThrough(), { update: true }),
    cli: ['ticks', 'AAPL', '--start', '2025-03-13', '--update'],
    option: 'update',
  },
  {
    what: 'a time zone that does not exist',
    call: (c, dir) => c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { timeZone: 'Mars/Olympus' }),
    cli: ['ticks', 'AAPL', '--tz', 'Mars/Olympus'],
    option: 'timeZone',
  },
  {
    what: 'a source zone that does not exist',
    call: (c, dir) =>
      c
        .ticks({ symbols: 'AAPL', start: '2025-03-13' })
        .download(join(dir, 'x.csv'), { sourceTimeZone: 'nowhere' }),
    cli: ['ticks', 'AAPL', '--source-tz', 'nowhere'],
    option: 'sourceTimeZone',
  },
  {
    what: 'a column named twice',
    call: (c, dir) =>
      c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { columns: ['time', 'time'] }),
    cli: ['ticks', 'AAPL', '--columns', 'time,time'],
    option: 'columns',
  },
  {
    what: 'a column the output has not',
    call: (c, dir) => c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { columns: ['tim'] }),
    cli: ['ticks', 'AAPL', '--columns', 'tim'],
    option: 'columns',
  },
  {
    what: 'a rewrite of raw bytes',
    call: (c, dir) =>
      c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { format: 'raw', timeZone: 'utc' }),
    cli: ['ticks', 'AAPL', '--format', 'raw', '--utc'],
    option: 'timeZone',
  },
  {
    what: 'a window for a command that is no time series',
    call: (c, dir) => c.events({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { windowMs: 86_400_000 }),
    cli: ['events', 'AAPL', '--window', '1d'],
    option: 'windowMs',
  },
  {
    what: 'a tick window longer than a day',
    call: (c, dir) => c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { windowMs: 2 * 86_400_000 }),
    cli: ['ticks', 'AAPL', '--window', '2d'],
    option: 'windowMs',
  },
  {
    what: 'the password as an extra parameter',
    call: (c) => drain(c.ticks({ symbols: 'AAPL', extra: [['password', 'x']] })),
    cli: ['ticks', 'AAPL', '--param', 'password=x'],
    option: 'extra',
  },
  {
    what: 'an unknown placeholder',
    call: (c, dir) => c.ticks({ symbols: 'AAPL' }).download(join(dir, '{sym}.csv')),
    cli: ['ticks', 'AAPL', '-o', '{sym}.csv'],
    option: 'output',
  },
  {
    what: 'a share that does not exist',
    call: (c, dir) =>
      c.ticks({ symbols: 'AAPL' }).download(join(dir, 'x.csv'), { shard: { index: 3, count: 2 } }),
    cli: ['ticks', 'AAPL', '--shard', '3/2'],
    option: 'shard',
  },
];

/** The option as the CLI names it in its message. */
const FLAGS: Record<string, string> = {
  daysToExpiration: '--days-to-expiration',
  sessionFilter: '--session-filter',
  skipExisting: '--skip-existing',
  timeZone: '--',
  sourceTimeZone: '--source-tz',
  windowMs: '--window',
  extra: '--param',
  output: '-o',
  symbols: 'symbol',
  symbol: 'symbol',
};

describe('the library refuses what the CLI refuses, by the same rule, before any request', () => {
  it.each(CASES)('$what', async ({ call, cli, option }) => {
    await withEmulator({}, async (emu) => {
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      const dir = tempDir();
      try {
        const error = await call(client, dir).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isMdgetError(error), String(error)).toBe(true);
        const { code, message } = error as { code: string; message: string };
        expect(code).toBe('MDGET_USAGE');
        expect(message).toContain(option === 'symbols' || option === 'symbol' ? 'symbol' : option);
        expect(message).not.toMatch(/(^|\s)--[a-z]/); // an option's name, not a flag
      } finally {
        await client.close();
      }
      const run = await runMain(cli, { env: emu.env, cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(FLAGS[option] ?? `--${option}`);
      expect(emu.requests).toHaveLength(0);
    });
  });

  it('takes the CLI date forms and says which option a bad client setting is', async () => {
    await withEmulator({}, async (emu) => {
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      try {
        const bars = [];
        for await (const bar of client.minutes({
          symbols: 'AAPL',
          start: '2025-03-14T09:30',
          end: '2025-03-14T09:33',
        }))
          bars.push(bar);
        expect(bars.map((bar) => bar.time)).toEqual([
          '2025-03-14 09:30',
          '2025-03-14 09:31',
          '2025-03-14 09:32',
        ]);
        // typed per command: a string and a number (or null) to TypeScript
        const symbol: string | null = bars[0]!.symbol;
        expect(symbol).toBe('AAPL');
      } finally {
        await client.close();
      }
      expect(() => createClient({}, { retries: -1 })).toThrow(/^retries takes a whole number/);
    });
  });
});
