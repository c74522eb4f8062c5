import { describe, expect, it } from 'vitest';
import { flagNames } from '../../src/cli/flag-names.js';
import { EdgeFilter } from '../../src/core/pipeline/edge-filter.js';
import { RangeFilter } from '../../src/core/pipeline/range-filter.js';
import { optionNames } from '../../src/core/plan/names.js';
import { type Recipe, recipeDifference } from '../../src/core/plan/recipe.js';

const BASE: Recipe = {
  command: 'minutes',
  page: 'queryminutes.ashx',
  symbols: ['AAPL', 'MSFT'],
  zones: ['America/New_York', 'America/New_York'],
  query: { order: 'asc' },
  format: 'csv',
  header: true,
  gzip: false,
};

describe('recipeDifference: the first difference, naming the option and the way on', () => {
  it.each<[string, Partial<Recipe>, Partial<Recipe>, string | undefined]>([
    ['equal', {}, {}, undefined],
    [
      '--utc dropped',
      { timeZone: 'utc' },
      {},
      'u.csv was written with --utc: add it, or pass --force to start it over',
    ],
    [
      '--tz added',
      {},
      { timeZone: 'Europe/London' },
      'u.csv was written without --tz: drop --tz Europe/London, or pass --force to start it over',
    ],
    [
      '--interval dropped',
      { query: { order: 'asc', interval: '5' } },
      {},
      'u.csv was written with --interval 5: add it, or pass --force to start it over',
    ],
    [
      '--interval changed',
      { query: { order: 'asc', interval: '5' } },
      { query: { order: 'asc', interval: '10' } },
      'u.csv was written with --interval 5, not 10: give --interval 5, or pass --force to start it over',
    ],
    [
      '--trend added',
      {},
      { query: { order: 'asc', trend: 'y' } },
      'u.csv was written without --trend: drop --trend, or pass --force to start it over',
    ],
    [
      '--param added',
      {},
      { query: { order: 'asc', foo: 'bar' } },
      'u.csv was written without --param: drop --param foo=bar, or pass --force to start it over',
    ],
    [
      'symbols',
      {},
      { symbols: ['MSFT', 'AAPL'] },
      'u.csv holds AAPL,MSFT, this run asks for MSFT,AAPL: give the same symbols in the same order, or another -o, or pass --force to start it over',
    ],
    [
      '--columns dropped',
      { columns: ['time', 'close'] },
      {},
      'u.csv was written with --columns time,close: add it, or pass --force to start it over',
    ],
    [
      '--no-header',
      { header: false },
      {},
      'u.csv was written with --no-header: add it, or pass --force to start it over',
    ],
    [
      '--gzip',
      {},
      { gzip: true },
      'u.csv was written without --gzip: drop --gzip, or pass --force to start it over',
    ],
    [
      '--format',
      {},
      { format: 'ndjson' },
      'u.csv was written with --format csv, not ndjson: give --format csv, or pass --force to start it over',
    ],
    [
      'a variant',
      {},
      { page: 'querynearbyminutes.ashx' },
      'u.csv was written by minutes (queryminutes.ashx), not minutes (querynearbyminutes.ashx): give another -o, or pass --force to start it over',
    ],
  ])('%s', (_, recorded, wanted, says) => {
    expect(recipeDifference({ ...BASE, ...recorded }, { ...BASE, ...wanted }, 'u.csv', flagNames)).toBe(says);
  });

  it('the library hears its own option names', () => {
    const says = recipeDifference(
      { ...BASE, query: { order: 'asc', interval: '5' } },
      BASE,
      'u.csv',
      optionNames,
    );
    expect(says).toBe('u.csv was written with interval 5: add it, or pass force to start it over');
  });
});

const lines = (text: string) => Buffer.from(text);
const keyOf = (index: number, length: number) => (bytes: Buffer, start: number, end: number) => {
  const field = bytes.toString('latin1', start, end).trim().split(',')[index];
  return field && /^\d{4}/.test(field) ? field.slice(0, length) : undefined;
};

describe('the window edges: rows before the start are never kept', () => {
  it('ascending: the leading run before the start goes, the autumn hour after it stays', () => {
    const filter = new EdgeFilter(keyOf(0, 16), 'asc', '2025-03-11 00:00', '2025-03-10 10:00');
    const kept = filter.keep(
      lines('2025-03-10 09:58,1\n2025-03-10 09:59,2\n2025-03-10 10:00,3\n2025-03-10 09:30,4\n'),
    );
    expect(kept.toString()).toBe('2025-03-10 10:00,3\n2025-03-10 09:30,4\n');
    expect([filter.repeated, filter.reachedStart]).toEqual([2, true]);
  });

  it('descending: the trailing run before the start goes', () => {
    const filter = new EdgeFilter(keyOf(0, 16), 'desc', undefined, '2025-03-10 10:00');
    const kept = filter.keep(lines('2025-03-10 10:01,1\n2025-03-10 10:00,2\n2025-03-10 09:59,3\n'));
    expect(kept.toString()).toBe('2025-03-10 10:01,1\n2025-03-10 10:00,2\n');
    expect(filter.keep(lines('2025-03-10 09:58,4\n')).length).toBe(0);
    expect(filter.repeated).toBe(2);
  });

  it('events: every row outside the dates goes, symbol after symbol', () => {
    const filter = new RangeFilter(keyOf(1, 10), '2024-01-01', '2024-06-01');
    const kept = filter.keep(
      lines('A,2023-12-01,x\nA,2024-02-01,y\nA,2024-07-01,z\nB,2023-11-01,x\nB,2024-03-01,y\n'),
    );
    expect(kept.toString()).toBe('A,2024-02-01,y\nB,2024-03-01,y\n');
    expect([filter.repeated, filter.reachedStart]).toEqual([2, true]);
  });
});
