import { describe, expect, it } from 'vitest';
import { flagNames } from '../../src/cli/flag-names.js';
import type { DownloadName, DownloadOptions } from '../../src/core/model/options.js';
import { optionNames } from '../../src/core/plan/names.js';
import { urlOf } from '../../src/core/plan/planned-request.js';
import { resolve } from '../../src/core/plan/resolve.js';

const config = {
  username: 'u',
  password: 'p',
  historicalUrl: 'http://h.test',
  futuresOptionsUrl: 'http://fo.test',
};
const now = new Date('2025-03-14T20:00:00Z');
const cli = <N extends DownloadName>(name: N, options: DownloadOptions<N>, c: object = config) =>
  resolve(name, options, { config: c, now, names: flagNames });
const library = <N extends DownloadName>(name: N, options: DownloadOptions<N>) =>
  resolve(name, options, { config, now, names: optionNames });

// The rules live in core's resolve: the CLI and the library meet the same ones, each in its own words.
describe('download commands resolved', () => {
  it('refuses what the CLI refuses: flags for the CLI, option names for the library', () => {
    expect(() => cli('eod', { symbols: ['ZC*1'], nearest: true, continue: true })).toThrow(
      '--nearest and --continue exclude each other',
    );
    expect(() => library('eod', { symbols: ['ZC*1'], nearest: true, continue: true })).toThrow(
      'nearest and continue exclude each other',
    );
    expect(() => cli('ticks', { symbols: ['ES'], update: true, output: 'x.csv' })).toThrow(
      '--update needs --start',
    );
    expect(() => cli('events', { symbols: ['AAPL'], update: true })).toThrow(
      '--update applies to ticks, minutes and eod',
    );
    expect(() => cli('ticks', { symbols: [] })).toThrow('no symbols: give them as arguments');
    expect(() => cli('ticks', { symbols: ['ES'], shard: { index: 3, count: 2 } })).toThrow("--shard '3/2'");
    expect(() => library('minutes', { symbols: ['ES'], interval: 0 })).toThrow(
      "interval takes a whole number ≥ 1, not '0'",
    );
  });

  it('plans without configuration: what a run needs is in the job, checked when it runs', () => {
    const job = cli('futopts', { symbols: ['ZC'] }, {});
    expect(job.needs).toEqual(['credentials', 'futuresOptions']);
    expect(JSON.stringify(job.requests)).not.toMatch(/username|password/);
    expect(() => cli('futopts', { symbols: ['ZC'], concurrency: 0 }, {})).toThrow(/--concurrency/);
  });

  it('resolves the transport once: retries, timeout, rate, and sockets sized from concurrency', () => {
    const options = { symbols: ['ES'], concurrency: 16, retries: 0, timeoutMs: 5_000, rate: 2 };
    expect(cli('ticks', options).settings.transport).toEqual({
      concurrency: 16,
      retries: 0,
      timeoutMs: 5_000,
      rate: 2,
      sockets: 16,
    });
    expect(() => cli('ticks', { symbols: ['ES'], retries: 21 })).toThrow(
      "--retries takes a whole number from 0 to 20, not '21'",
    );
    expect(() => cli('ticks', { symbols: ['ES'], timeoutMs: 0 })).toThrow(
      "--timeout takes a positive number of milliseconds, not '0'",
    );
    expect(() => cli('ticks', { symbols: ['ES'], rate: -1 })).toThrow(/--rate takes a positive number/);
  });

  it('applies every default once, and the format of --json is json', () => {
    expect(cli('ticks', { symbols: ['ES'] }).settings).toEqual({
      format: 'csv',
      header: true,
      force: false,
      skipExisting: false,
      update: false,
      gzip: false,
      concurrency: 4,
      transport: { concurrency: 4, retries: 3, timeoutMs: 60_000, sockets: 8 },
      fsync: true,
    });
    const json = cli('futopts', { symbols: ['ZC', 'CL'], json: true, output: 'fo-{symbol}.json' });
    expect(json.settings.format).toBe('json');
    expect(json.requests.map((p) => p.request.page)).toEqual(['futuresoptions/json', 'futuresoptions/json']);
    expect(
      resolve(
        'ticks',
        { symbols: ['ES'], timeZone: 'utc', gzip: true },
        {
          config: { ...config, maxRows: '500' },
          now,
          names: flagNames,
        },
      ).settings,
    ).toMatchObject({ timeZone: 'utc', gzip: true, maxRows: 500 });
  });

  it('runs an --update range to the end of today, and keeps one share of the plan', () => {
    const update = { symbols: ['AAPL'], update: true, output: 'a.csv', start: '2025-03-13' };
    const plans = cli('ticks', update).requests;
    expect(plans.map((p) => urlOf(p, config).searchParams.get('start'))).toEqual(['20250313', '20250314']);
    const shared = cli('ticks', { ...update, shard: { index: 2, count: 2 } }).requests;
    expect(shared.map((p) => urlOf(p, config).searchParams.get('start'))).toEqual(['20250314']);
  });
});
