import { describe, expect, it } from 'vitest';
import { eodCommand } from '../../src/core/plan/commands/eod.js';
import { eventsCommand } from '../../src/core/plan/commands/events.js';
import { futuresOptionsCommand } from '../../src/core/plan/commands/futures-options.js';
import { minutesCommand } from '../../src/core/plan/commands/minutes.js';
import { ticksCommand } from '../../src/core/plan/commands/ticks.js';
import { batchOptionsOf, planDownload } from '../../src/core/plan/download.js';

const config = {
  username: 'u',
  password: 'p',
  historicalUrl: 'http://h.test',
  futuresOptionsUrl: 'http://fo.test',
};
const ctx = { config, now: new Date('2025-03-14T20:00:00Z') };
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

// Issue 11: the rules live in core, so a library caller meets the same ones as the CLI.
describe('download commands called as a library', () => {
  it('refuses what the CLI refuses, with the same messages', () => {
    expect(() =>
      planDownload(eodCommand, { symbols: ['ZC*1'], params: { nearest: true, continue: true } }, ctx),
    ).toThrow('--nearest and --continue exclude each other');
    expect(() => planDownload(minutesCommand, { symbols: ['ES'], nearby: true, formT: true }, ctx)).toThrow(
      '--nearby and --form-t exclude each other',
    );
    expect(() => planDownload(ticksCommand, { symbols: ['ES'], update: true, output: 'x.csv' }, ctx)).toThrow(
      '--update needs --start',
    );
    expect(() => planDownload(eventsCommand, { symbols: ['AAPL'], update: true }, ctx)).toThrow(
      '--update applies to ticks, minutes and eod',
    );
    expect(() => planDownload(ticksCommand, { symbols: [] }, ctx)).toThrow('ticks: no symbols given');
    expect(() => planDownload(ticksCommand, { symbols: ['ES'], shard: { index: 3, count: 2 } }, ctx)).toThrow(
      "--shard '3/2'",
    );
  });

  it('requires the configuration the command needs', () => {
    expect(() => planDownload(futuresOptionsCommand, { symbols: ['ZC'] }, { ...ctx, config: {} })).toThrow(
      /missing user name/,
    );
  });

  it('defaults every batch option, and the format of --json to json', () => {
    expect(batchOptionsOf(ticksCommand, { symbols: ['ES'] }, config)).toEqual({
      output: '-',
      format: 'csv',
      header: true,
      force: false,
      skipExisting: false,
      concurrency: 4,
      fsync: true,
      update: false,
    });
    const json = { symbols: ['ZC', 'CL'], json: true, output: 'fo-{symbol}.json' };
    expect(batchOptionsOf(futuresOptionsCommand, json, config).format).toBe('json');
    expect(planDownload(futuresOptionsCommand, json, ctx).map((p) => p.url.pathname)).toEqual([
      '/futuresoptions/json',
      '/futuresoptions/json',
    ]);
    expect(
      batchOptionsOf(ticksCommand, { symbols: ['ES'], timeZone: 'utc', gzip: true }, { maxRows: '500' }),
    ).toMatchObject({
      timeZone: 'utc',
      gzip: true,
      maxRows: 500,
    });
  });

  it('runs an --update range to the end of today, and keeps one share of the plan', () => {
    const update = { symbols: ['AAPL'], update: true, output: 'a.csv', params: { start: day('2025-03-13') } };
    const plans = planDownload(ticksCommand, update, ctx);
    expect(plans.map((p) => p.url.searchParams.get('start'))).toEqual(['20250313', '20250314']);
    const shared = planDownload(ticksCommand, { ...update, shard: { index: 2, count: 2 } }, ctx);
    expect(shared.map((p) => p.url.searchParams.get('start'))).toEqual(['20250314']);
  });
});
