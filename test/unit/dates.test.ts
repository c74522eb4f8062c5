import { describe, expect, it } from 'vitest';
import { flagNames } from '../../src/cli/flag-names.js';
import { checkRange } from '../../src/core/plan/rules.js';
import { planDayWindows, resolveDayRange, shardOf, splitByLength } from '../../src/core/plan/windows.js';
import {
  CENTRAL,
  EASTERN,
  formatServiceDate,
  isEquitySymbol,
  parseDateInput,
  todayIn,
} from '../../src/core/time/dates.js';

// 2025-03-14 03:30 UTC is still the 13th in New York and Chicago.
const NOW = new Date('2025-03-14T03:30:00Z');
const iso = (d: Date) => d.toISOString().slice(0, 19);

describe('parseDateInput', () => {
  it.each([
    ['2025-03-14', '2025-03-14T00:00:00'],
    ['2025-03-14T09:30', '2025-03-14T09:30:00'],
    ['2025-03-14 09:30:15', '2025-03-14T09:30:15'],
    ['20250314', '2025-03-14T00:00:00'],
    ['202503140930', '2025-03-14T09:30:00'],
    ['20250314093015', '2025-03-14T09:30:15'],
    ['today', '2025-03-13T00:00:00'],
    ['yesterday', '2025-03-12T00:00:00'],
    ['tomorrow', '2025-03-14T00:00:00'],
    ['7d', '2025-03-06T00:00:00'],
    ['2024-02-29', '2024-02-29T00:00:00'],
  ])('%s → %s', (input, expected) =>
    expect(iso(parseDateInput(input, '--start', EASTERN, NOW))).toBe(expected),
  );

  it.each([
    '2025-02-30',
    '2025-13-01',
    '2025-03-14T24:00',
    '2025031',
    'the day after',
    '',
    '2025-03-14T09:60',
    '3w',
  ])('rejects %s naming the flag and the forms', (input) =>
    expect(() => parseDateInput(input, '--end', EASTERN, NOW)).toThrow(
      expect.objectContaining({
        code: 'MDGET_USAGE',
        message: expect.stringMatching(/^invalid --end .*YYYY-MM-DD/),
      }),
    ),
  );

  it('takes today in the market zone', () => {
    const lateEvening = new Date('2025-03-14T04:30:00Z'); // 00:30 in New York, 23:30 in Chicago
    expect(iso(todayIn(EASTERN, lateEvening))).toBe('2025-03-14T00:00:00');
    expect(iso(todayIn(CENTRAL, lateEvening))).toBe('2025-03-13T00:00:00');
  });
});

describe('formatServiceDate', () => {
  it.each([
    ['2025-03-14T00:00:00Z', '20250314'],
    ['2025-03-14T09:30:00Z', '20250314093000'],
    ['2025-03-14T09:30:15Z', '20250314093015'],
  ])('%s → %s', (input, expected) => expect(formatServiceDate(new Date(input))).toBe(expected));
});

describe('symbols', () => {
  it.each([
    ['AAPL', true],
    ['BRK.B', true],
    ['ESM25', false],
    ['ESM5', false],
    ['ES*1', false],
    ['^EURUSD', false],
    ['$SPX', false],
  ])('%s is an equity: %s', (symbol, expected) => expect(isEquitySymbol(symbol)).toBe(expected));
});

describe('chunks', () => {
  const d = (s: string) => new Date(`${s}Z`);
  it('splits a range into calendar days, cut at midnights', () => {
    const windows = planDayWindows({ start: d('2025-03-13T12:00:00'), end: d('2025-03-15T06:00:00') });
    expect(windows.map((w) => [iso(w.start), iso(w.end)])).toEqual([
      ['2025-03-13T12:00:00', '2025-03-14T00:00:00'],
      ['2025-03-14T00:00:00', '2025-03-15T00:00:00'],
      ['2025-03-15T00:00:00', '2025-03-15T06:00:00'],
    ]);
  });
  it('fills missing ends as the service does', () => {
    const today = d('2025-03-13T00:00:00');
    const r = (s?: string, e?: string) => {
      const w = resolveDayRange(s ? d(s) : undefined, e ? d(e) : undefined, () => today);
      return [iso(w.start), iso(w.end)];
    };
    expect(r()).toEqual(['2025-03-13T00:00:00', '2025-03-14T00:00:00']);
    expect(r('2025-03-10T10:00:00')).toEqual(['2025-03-10T10:00:00', '2025-03-11T00:00:00']);
    expect(r(undefined, '2025-03-10T10:00:00')).toEqual(['2025-03-10T00:00:00', '2025-03-10T10:00:00']);
    expect(r(undefined, '2025-03-10T00:00:00')).toEqual(['2025-03-09T00:00:00', '2025-03-10T00:00:00']);
  });
  it('rejects an end not after the start', () => {
    expect(() => checkRange(d('2025-03-14T00:00:00'), d('2025-03-14T00:00:00'), flagNames)).toThrow(
      /--end .* must be after --start/,
    );
  });
  it('splits lists by encoded length and shards deterministically', () => {
    expect(splitByLength(['aa', 'bb', 'cc', 'dd'], (s) => s.length + 1, 6)).toEqual([
      ['aa', 'bb'],
      ['cc', 'dd'],
    ]);
    expect(shardOf([1, 2, 3, 4, 5], 2, 2)).toEqual([2, 4]);
  });
});
