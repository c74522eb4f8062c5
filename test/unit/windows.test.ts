import { describe, expect, it } from 'vitest';
import { continuationWindow, formatKey, keyTime } from '../../src/core/plan/series.js';
import {
  DEFAULT_WINDOW_ROWS,
  eodRowsPerDay,
  sessionMinutes,
  windowMs,
} from '../../src/core/plan/window-size.js';
import { planWindows } from '../../src/core/plan/windows.js';

const d = (iso: string) => new Date(`${iso}Z`);
const DAY = 86_400_000;
const iso = (w: { start: Date; end: Date }) => [
  w.start.toISOString().slice(0, 16),
  w.end.toISOString().slice(0, 16),
];

describe('window sizing (from the rows a day holds, not a fixed 31 days)', () => {
  it.each([
    ['AAPL', 1, 'minutes', 25],
    ['AAPL', 5, 'minutes', 128],
    ['AAPL', 1, 'form-t', 10],
    ['ESM25', 1, 'minutes', 7],
    ['^EURUSD', 1, 'minutes', 6],
  ] as const)('%s, %i-minute bars (%s): windows of %i days', (symbol, interval, variant, days) => {
    expect(windowMs(sessionMinutes(symbol, variant) / interval) / DAY).toBe(days);
  });

  it('stays under a stated cap; EOD windows span years', () => {
    expect(windowMs(390, 1000) / DAY).toBe(2);
    expect(windowMs(390, 100) / DAY).toBe(1);
    expect(windowMs(eodRowsPerDay('daily')) / DAY).toBe(DEFAULT_WINDOW_ROWS);
    expect(windowMs(eodRowsPerDay('weekly'), 1000) / DAY).toBe(4000);
  });
});

describe('planWindows', () => {
  it('cuts whole-day sizes at midnights', () => {
    const windows = planWindows({ start: d('2025-03-10T12:00'), end: d('2025-03-15T00:00') }, 2 * DAY);
    expect(windows.map(iso)).toEqual([
      ['2025-03-10T12:00', '2025-03-12T00:00'],
      ['2025-03-12T00:00', '2025-03-14T00:00'],
      ['2025-03-14T00:00', '2025-03-15T00:00'],
    ]);
  });

  it('cuts shorter sizes at multiples after each midnight, never across one', () => {
    const windows = planWindows({ start: d('2025-03-13T21:30'), end: d('2025-03-14T03:00') }, 2 * 3_600_000);
    expect(windows.map(iso)).toEqual([
      ['2025-03-13T21:30', '2025-03-13T22:00'],
      ['2025-03-13T22:00', '2025-03-14T00:00'],
      ['2025-03-14T00:00', '2025-03-14T02:00'],
      ['2025-03-14T02:00', '2025-03-14T03:00'],
    ]);
  });
});

describe('series keys and continuations', () => {
  const series = {
    window: { start: d('2025-03-13T00:00'), end: d('2025-03-14T00:00') },
    resolution: 'second' as const,
    filterEnd: true,
    provisional: false,
    rebuild: () => new URL('http://h.test'),
  };

  it('formats keys as rows carry them', () => {
    expect(formatKey(d('2025-03-13T09:30:05'), 'second')).toBe('2025-03-13 09:30:05');
    expect(formatKey(d('2025-03-13T09:30:05'), 'minute')).toBe('2025-03-13 09:30');
    expect(formatKey(d('2025-03-13T09:30:05'), 'day')).toBe('2025-03-13');
    expect(keyTime('2025-03-13 09:30', 'minute').toISOString()).toBe('2025-03-13T09:30:00.000Z');
  });

  it('ascending continues from the held key; descending ends just after it', () => {
    expect(iso(continuationWindow({ ...series, order: 'asc' }, '2025-03-13 10:00:01') as never)).toEqual([
      '2025-03-13T10:00',
      '2025-03-14T00:00',
    ]);
    const desc = continuationWindow({ ...series, order: 'desc' }, '2025-03-13 10:00:01');
    expect([desc.start?.toISOString(), desc.end?.toISOString()]).toEqual([
      '2025-03-13T00:00:00.000Z',
      '2025-03-13T10:00:02.000Z',
    ]);
  });
});

describe('windowTimes (--dry-run)', () => {
  it('shows a window in market time and UTC', async () => {
    const { windowTimes } = await import('../../src/core/plan/window-times.js');
    const plan = {
      request: { base: 'historical' as const, page: 'queryticks.ashx' as const, query: [] },
      kind: 'ticks' as const,
      command: 'ticks',
      symbol: 'AAPL',
      zone: 'America/New_York',
      trend: false,
      series: {
        resolution: 'second' as const,
        filterEnd: true,
        provisional: false,
        order: 'asc' as const,
        window: { start: d('2025-03-13T09:30'), end: d('2025-03-13T16:00') },
      },
    };
    expect(windowTimes(plan)).toBe(
      '2025-03-13 09:30 → 2025-03-13 16:00 America/New_York = 2025-03-13T13:30Z → 2025-03-13T20:00Z',
    );
  });
});
