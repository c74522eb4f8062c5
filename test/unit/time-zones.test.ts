import { describe, expect, it } from 'vitest';
import { CENTRAL, EASTERN, formatServiceDate } from '../../src/core/time/dates.js';
import {
  assertTimeZone,
  isValidTimeZone,
  utcOfWallTime,
  wallTimeOf,
} from '../../src/core/time/time-zones.js';
import { createTimestampConverter, type TimestampTarget } from '../../src/core/time/timestamp-converter.js';
import { marketWallTime, parseZonedInput } from '../../src/core/time/zoned-input.js';

// Real Intl throughout. US rules: spring forward at 02:00 on the second Sunday of March, fall back at
// 02:00 on the first Sunday of November: 2024-03-10, 2024-11-03, 2025-03-09, 2025-11-02.
const HOUR = 3_600_000;
const MINUTE = 60_000;
const wall = (text: string) => new Date(`${text}Z`); // a WallTime: UTC fields = the wall clock
const wallText = (time: Date) => time.toISOString().slice(0, 23);

const convertAll = (sourceZone: string, target: TimestampTarget, order: 'asc' | 'desc', rows: string[]) => {
  const convert = createTimestampConverter({ sourceZone, target, order });
  return rows.map((row) => convert(row));
};
const convertOne = (sourceZone: string, target: TimestampTarget, text: string) =>
  convertAll(sourceZone, target, 'asc', [text])[0];

/** `count` minute bars from `first` (`YYYY-MM-DD HH:MM`), in wall-clock arithmetic (no DST). */
const minuteBars = (first: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    new Date(wall(first.replace(' ', 'T')).getTime() + i * MINUTE)
      .toISOString()
      .slice(0, 16)
      .replace('T', ' '),
  );

describe('isValidTimeZone / assertTimeZone', () => {
  it.each([
    ['America/New_York', true],
    ['America/Chicago', true],
    ['UTC', true],
    ['Etc/UTC', true],
    ['US/Eastern', true],
    ['america/chicago', true],
    ['Asia/Kolkata', true],
    ['Mars/Base', false],
    ['', false],
    ['+01:00', false],
    ['-0500', false],
    ['America/NewYork', false],
  ])('%j → %s', (name, valid) => expect(isValidTimeZone(name)).toBe(valid));

  it('names the flag and gives an example', () => {
    expect(() => assertTimeZone('Mars/Base', '--tz')).toThrow(
      expect.objectContaining({
        code: 'MDGET_USAGE',
        message: "--tz 'Mars/Base': not an IANA time zone such as America/New_York or UTC",
      }),
    );
    expect(() => assertTimeZone('America/Chicago', '--tz')).not.toThrow();
  });

  it.each([
    [
      { sourceZone: 'Mars/Base', target: 'utc' },
      "sourceTimeZone 'Mars/Base': not an IANA time zone such as America/New_York or UTC",
    ],
    [
      { sourceZone: CENTRAL, target: 'Central' },
      "timeZone 'Central': not an IANA time zone such as America/New_York or UTC",
    ],
    [{ sourceZone: CENTRAL, target: 'utc', order: 'up' }, "order 'up': use asc or desc"],
  ])('createTimestampConverter(%o) refuses: %s', (options, message) =>
    expect(() =>
      createTimestampConverter({ order: 'asc', ...options } as Parameters<
        typeof createTimestampConverter
      >[0]),
    ).toThrow(expect.objectContaining({ code: 'MDGET_USAGE', message })),
  );
});

describe('createTimestampConverter: one row', () => {
  it.each([
    // Ticks keep their milliseconds; minutes get :00 and no fraction.
    [CENTRAL, 'utc', '2025-03-13 00:00:00.021', '2025-03-13T05:00:00.021Z'],
    [CENTRAL, CENTRAL, '2025-03-13 00:00:00.021', '2025-03-13T00:00:00.021-05:00'],
    [EASTERN, 'utc', '2025-03-13 10:30', '2025-03-13T14:30:00Z'],
    [EASTERN, EASTERN, '2025-03-13 10:30', '2025-03-13T10:30:00-04:00'],
    [EASTERN, 'utc', '2025-03-13 10:30:15', '2025-03-13T14:30:15Z'],
    [EASTERN, 'utc', '2025-03-13 10:30:15.000', '2025-03-13T14:30:15.000Z'],
    [EASTERN, 'utc', '2025-01-15 09:30', '2025-01-15T14:30:00Z'],
    [CENTRAL, 'utc', '2025-01-15 09:30:00.500', '2025-01-15T15:30:00.500Z'],
    [CENTRAL, 'utc', '2025-01-15 23:59:59.999', '2025-01-16T05:59:59.999Z'],
    [CENTRAL, EASTERN, '2025-01-15 23:59:59.999', '2025-01-16T00:59:59.999-05:00'],
    [EASTERN, CENTRAL, '2025-01-01 00:00', '2024-12-31T23:00:00-06:00'],
    [CENTRAL, 'Europe/London', '2025-03-13 00:00', '2025-03-13T05:00:00+00:00'],
    [CENTRAL, 'Asia/Kolkata', '2025-03-13 00:00:00.001', '2025-03-13T10:30:00.001+05:30'],
    [CENTRAL, 'UTC', '2025-03-13 00:00', '2025-03-13T05:00:00+00:00'],
    [CENTRAL, 'utc', '2024-02-29 18:00', '2024-03-01T00:00:00Z'],
    // Spring forward: the last minute before and the first after, both zones, 2024 and 2025.
    [EASTERN, 'utc', '2024-03-10 01:59', '2024-03-10T06:59:00Z'],
    [EASTERN, 'utc', '2024-03-10 03:00', '2024-03-10T07:00:00Z'],
    [EASTERN, EASTERN, '2025-03-09 01:59:59.999', '2025-03-09T01:59:59.999-05:00'],
    [EASTERN, EASTERN, '2025-03-09 03:00:00.000', '2025-03-09T03:00:00.000-04:00'],
    [CENTRAL, 'utc', '2025-03-09 01:59', '2025-03-09T07:59:00Z'],
    [CENTRAL, 'utc', '2025-03-09 03:00', '2025-03-09T08:00:00Z'],
    [CENTRAL, CENTRAL, '2024-03-10 01:59', '2024-03-10T01:59:00-06:00'],
    [CENTRAL, CENTRAL, '2024-03-10 03:00', '2024-03-10T03:00:00-05:00'],
    // Gap rule: a wall time that never existed is read as if the clock had not yet moved forward.
    [EASTERN, 'utc', '2025-03-09 02:30', '2025-03-09T07:30:00Z'],
    [EASTERN, EASTERN, '2025-03-09 02:30', '2025-03-09T03:30:00-04:00'],
    [CENTRAL, 'utc', '2024-03-10 02:15:00.250', '2024-03-10T08:15:00.250Z'],
    [CENTRAL, CENTRAL, '2024-03-10 02:00:00.000', '2024-03-10T03:00:00.000-05:00'],
    // Autumn: just outside the repeated hour.
    [EASTERN, 'utc', '2025-11-02 00:59', '2025-11-02T04:59:00Z'],
    [EASTERN, 'utc', '2025-11-02 02:00', '2025-11-02T07:00:00Z'],
    [CENTRAL, CENTRAL, '2024-11-03 00:59:59.999', '2024-11-03T00:59:59.999-05:00'],
    [CENTRAL, CENTRAL, '2024-11-03 02:00:00.000', '2024-11-03T02:00:00.000-06:00'],
    // Instants into a zone's own folds and gaps (source UTC): the gap's wall times never show.
    ['UTC', EASTERN, '2025-03-09 06:59:59.999', '2025-03-09T01:59:59.999-05:00'],
    ['UTC', EASTERN, '2025-03-09 07:00:00.000', '2025-03-09T03:00:00.000-04:00'],
    ['UTC', CENTRAL, '2024-11-03 06:59', '2024-11-03T01:59:00-05:00'],
    ['UTC', CENTRAL, '2024-11-03 07:00', '2024-11-03T01:00:00-06:00'],
  ])('%s → %s: %s → %s', (source, target, input, expected) =>
    expect(convertOne(source, target, input)).toBe(expected),
  );

  it.each([
    '2025-03-13', // a trading date is no instant
    '',
    'Time',
    '2025-02-30 10:00',
    '2025-02-29 12:00',
    '2025-13-01 00:00',
    '2025-00-10 00:00',
    '2025-03-13 24:00',
    '2025-03-13 10:60',
    '2025-03-13 10:30:60',
    '2025-03-13T10:30',
    '2025-03-13 10:30:00.21',
    '2025-03-13 10:30:00,021',
    '2025/03/13 10:30',
    '2025-03-13 1a:30',
    '2025-03-13 10:30:00.02x',
  ])('returns %j unchanged', (input) => {
    expect(convertOne(CENTRAL, 'utc', input)).toBe(input);
    expect(convertOne(EASTERN, CENTRAL, input)).toBe(input);
  });

  it('converts valid rows after unchanged ones, with the same state', () => {
    const rows = ['2025-03-13', '2025-03-13 10:30', 'junk', '2025-03-14 10:30'];
    expect(convertAll(EASTERN, 'utc', 'asc', rows)).toEqual([
      '2025-03-13',
      '2025-03-13T14:30:00Z',
      'junk',
      '2025-03-14T14:30:00Z',
    ]);
  });

  it('never shows a wall time of a target gap (every minute around both spring transitions)', () => {
    for (const [zone, firstUtc, before, after] of [
      [EASTERN, '2025-03-09 06:00', '01:', '03:'],
      [CENTRAL, '2024-03-10 07:00', '01:', '03:'],
    ] as const) {
      const out = convertAll('UTC', zone, 'asc', minuteBars(firstUtc, 120));
      expect(out.filter((o) => o.includes('T02:'))).toEqual([]);
      expect([out[59]!.slice(11, 14), out[60]!.slice(11, 14)]).toEqual([before, after]);
    }
  });
});

describe('createTimestampConverter: through the repeated hour', () => {
  // A 24-hour market's minute bars: 00:58 … 01:59 (daylight), 01:00 … 01:59 again (standard), 02:00, 02:01.
  const cases = [
    [CENTRAL, '2024-11-03', 5, 6, '-05:00', '-06:00'],
    [CENTRAL, '2025-11-02', 5, 6, '-05:00', '-06:00'],
    [EASTERN, '2024-11-03', 4, 5, '-04:00', '-05:00'],
    [EASTERN, '2025-11-02', 4, 5, '-04:00', '-05:00'],
  ] as const;
  const sequence = (day: string) => [...minuteBars(`${day} 00:58`, 62), ...minuteBars(`${day} 01:00`, 62)];
  // The expected instants from the rule alone: the first 62 rows daylight, the rest standard time.
  const expectedUtc = (rows: string[], daylightHours: number, standardHours: number) =>
    rows.map((row, i) => {
      const hours = i < 62 ? daylightHours : standardHours;
      const instant = new Date(wall(row.replace(' ', 'T')).getTime() + hours * HOUR);
      return instant.toISOString().replace('.000Z', 'Z');
    });
  const expectedZoned = (rows: string[], daylight: string, standard: string) =>
    rows.map((row, i) => `${row.replace(' ', 'T')}:00${i < 62 ? daylight : standard}`);
  const instants = (out: string[]) => out.map((o) => Date.parse(o));
  const isStrictly = (values: number[], order: 'asc' | 'desc') =>
    values.every((v, i) => i === 0 || (order === 'asc' ? v > values[i - 1]! : v < values[i - 1]!));

  it.each(cases)(
    '%s %s ascending: daylight first, standard after the step back',
    (zone, day, dst, std, dOff, sOff) => {
      const rows = sequence(day);
      const utc = convertAll(zone, 'utc', 'asc', rows);
      const zoned = convertAll(zone, zone, 'asc', rows);
      expect(utc).toEqual(expectedUtc(rows, dst, std));
      expect(zoned).toEqual(expectedZoned(rows, dOff, sOff));
      expect([zoned[2], zoned[63], zoned[123]]).toEqual([
        `${day}T01:00:00${dOff}`,
        `${day}T01:01:00${sOff}`,
        `${day}T02:01:00${sOff}`,
      ]);
      expect(isStrictly(instants(utc), 'asc')).toBe(true);
      expect(isStrictly(instants(zoned), 'asc')).toBe(true);
    },
  );

  it.each(cases)(
    '%s %s descending: standard first, daylight after the step forward',
    (zone, day, dst, std, dOff, sOff) => {
      const rows = sequence(day);
      const utc = convertAll(zone, 'utc', 'desc', rows.toReversed());
      const zoned = convertAll(zone, zone, 'desc', rows.toReversed());
      expect(utc).toEqual(expectedUtc(rows, dst, std).toReversed());
      expect(zoned).toEqual(expectedZoned(rows, dOff, sOff).toReversed());
      expect(isStrictly(instants(utc), 'desc')).toBe(true);
      expect(isStrictly(instants(zoned), 'desc')).toBe(true);
    },
  );

  it('asc into another zone: Central bars, Eastern output, every instant increasing', () => {
    const out = convertAll(CENTRAL, EASTERN, 'asc', sequence('2024-11-03'));
    expect([out[0], out[61], out[62], out[123]]).toEqual([
      '2024-11-03T01:58:00-04:00', // 00:58 CDT = 05:58Z
      '2024-11-03T01:59:00-05:00', // 01:59 CDT = 06:59Z, after New York's own fall back
      '2024-11-03T02:00:00-05:00', // 01:00 CST = 07:00Z
      '2024-11-03T03:01:00-05:00',
    ]);
    expect(isStrictly(instants(out), 'asc')).toBe(true);
  });

  it.each([
    // Ticks step back to the second pass; equal timestamps stay equal; milliseconds are kept.
    [
      'asc',
      [
        '2024-11-03 01:59:59.998',
        '2024-11-03 01:59:59.999',
        '2024-11-03 01:00:00.000',
        '2024-11-03 01:00:00.000',
      ],
      [
        '2024-11-03T06:59:59.998Z',
        '2024-11-03T06:59:59.999Z',
        '2024-11-03T07:00:00.000Z',
        '2024-11-03T07:00:00.000Z',
      ],
    ],
    [
      'desc',
      [
        '2024-11-03 01:00:00.001',
        '2024-11-03 01:00:00.001',
        '2024-11-03 01:59:59.999',
        '2024-11-03 01:59:59.998',
      ],
      [
        '2024-11-03T07:00:00.001Z',
        '2024-11-03T07:00:00.001Z',
        '2024-11-03T06:59:59.999Z',
        '2024-11-03T06:59:59.998Z',
      ],
    ],
    // Nothing before: asc starts in the first pass (daylight), desc in the second (standard).
    ['asc', ['2024-11-03 01:30'], ['2024-11-03T06:30:00Z']],
    ['desc', ['2024-11-03 01:30'], ['2024-11-03T07:30:00Z']],
    // One pass only, no step back: asc stays in the first pass, desc in the second.
    [
      'asc',
      ['2024-11-03 00:59', '2024-11-03 01:30', '2024-11-03 02:05'],
      ['2024-11-03T05:59:00Z', '2024-11-03T06:30:00Z', '2024-11-03T08:05:00Z'],
    ],
    [
      'desc',
      ['2024-11-03 02:05', '2024-11-03 01:30', '2024-11-03 00:59'],
      ['2024-11-03T08:05:00Z', '2024-11-03T07:30:00Z', '2024-11-03T05:59:00Z'],
    ],
    // Days before the fold do not decide it.
    ['asc', ['2024-11-01 12:00', '2024-11-03 01:15'], ['2024-11-01T17:00:00Z', '2024-11-03T06:15:00Z']],
    ['desc', ['2024-11-05 12:00', '2024-11-03 01:15'], ['2024-11-05T18:00:00Z', '2024-11-03T07:15:00Z']],
  ] as const)('Central %s %j', (order, rows, expected) =>
    expect(convertAll(CENTRAL, 'utc', order, [...rows])).toEqual(expected),
  );

  it('a minute bar seen twice is the other pass, even with no step back between (a window ending at 01:01)', () => {
    const rows = ['2025-11-02 00:59', '2025-11-02 01:00', '2025-11-02 01:00'];
    expect(convertAll(CENTRAL, CENTRAL, 'asc', rows)).toEqual([
      '2025-11-02T00:59:00-05:00',
      '2025-11-02T01:00:00-05:00',
      '2025-11-02T01:00:00-06:00',
    ]);
    expect(convertAll(CENTRAL, 'utc', 'desc', rows.toReversed())).toEqual([
      '2025-11-02T07:00:00Z',
      '2025-11-02T06:00:00Z',
      '2025-11-02T05:59:00Z',
    ]);
    // ticks of one millisecond are one pass
    const ticks = ['2025-11-02 01:00:00.500', '2025-11-02 01:00:00.500'];
    expect(convertAll(CENTRAL, 'utc', 'asc', ticks)).toEqual([
      '2025-11-02T06:00:00.500Z',
      '2025-11-02T06:00:00.500Z',
    ]);
    expect(convertAll(CENTRAL, 'utc', 'desc', ticks)).toEqual([
      '2025-11-02T07:00:00.500Z',
      '2025-11-02T07:00:00.500Z',
    ]);
  });

  it('a fresh converter starts afresh: each response decides its own fold', () => {
    const rows = ['2024-11-03 01:59', '2024-11-03 01:00'];
    expect(convertAll(CENTRAL, 'utc', 'asc', rows)).toEqual(['2024-11-03T06:59:00Z', '2024-11-03T07:00:00Z']);
    expect(convertAll(CENTRAL, 'utc', 'asc', ['2024-11-03 01:00'])).toEqual(['2024-11-03T06:00:00Z']);
  });
});

describe('round trip: wall clock → UTC → wallTimeOf', () => {
  it.each([
    [EASTERN, '2025-03-13 10:30:00.021'],
    [EASTERN, '2024-03-10 01:59:59.999'],
    [EASTERN, '2024-03-10 03:00:00.000'],
    [EASTERN, '2025-11-02 00:59:59.999'],
    [EASTERN, '2025-11-02 02:00:00.000'],
    [EASTERN, '2024-12-31 23:59:59.999'],
    [CENTRAL, '2025-03-09 01:59:59.999'],
    [CENTRAL, '2025-03-09 03:00:00.000'],
    [CENTRAL, '2024-11-03 00:59:00.000'],
    [CENTRAL, '2024-11-03 02:00:00.001'],
    [CENTRAL, '2024-07-04 17:00:00.000'],
    [CENTRAL, '2025-01-15 00:00:00.000'],
  ])('%s %s', (zone, input) => {
    const instant = new Date(convertOne(zone, 'utc', input)!);
    expect(wallText(wallTimeOf(instant, zone))).toBe(input.replace(' ', 'T'));
  });
});

describe('utcOfWallTime / wallTimeOf', () => {
  it.each([
    ['2025-03-13T10:30:00.021', EASTERN, 'earlier', '2025-03-13T14:30:00.021Z'],
    ['2025-03-13T10:30:00.021', EASTERN, 'later', '2025-03-13T14:30:00.021Z'],
    ['2024-11-03T01:30:00', CENTRAL, 'earlier', '2024-11-03T06:30:00.000Z'],
    ['2024-11-03T01:30:00', CENTRAL, 'later', '2024-11-03T07:30:00.000Z'],
    ['2025-11-02T01:00:00', EASTERN, 'earlier', '2025-11-02T05:00:00.000Z'],
    ['2025-11-02T01:59:59.999', EASTERN, 'later', '2025-11-02T06:59:59.999Z'],
    // Gap: the offset before the transition, whichever pass is asked for.
    ['2025-03-09T02:30:00', EASTERN, 'earlier', '2025-03-09T07:30:00.000Z'],
    ['2025-03-09T02:30:00', EASTERN, 'later', '2025-03-09T07:30:00.000Z'],
    ['2024-03-10T02:00:00', CENTRAL, 'later', '2024-03-10T08:00:00.000Z'],
    ['2025-03-13T00:00:00', 'Asia/Kolkata', 'earlier', '2025-03-12T18:30:00.000Z'],
  ] as const)('%s in %s (%s) → %s', (input, zone, which, expected) =>
    expect(utcOfWallTime(wall(input), zone, which).toISOString()).toBe(expected),
  );

  it.each([
    ['2025-03-13T14:30:00.000Z', EASTERN, '2025-03-13T10:30:00.000'],
    ['2025-03-13T14:30:00.000Z', CENTRAL, '2025-03-13T09:30:00.000'],
    ['2025-03-09T06:59:59.999Z', EASTERN, '2025-03-09T01:59:59.999'],
    ['2025-03-09T07:00:00.000Z', EASTERN, '2025-03-09T03:00:00.000'],
    ['2024-11-03T06:59:59.999Z', CENTRAL, '2024-11-03T01:59:59.999'],
    ['2024-11-03T07:00:00.000Z', CENTRAL, '2024-11-03T01:00:00.000'],
    ['2025-01-01T00:00:00.000Z', 'UTC', '2025-01-01T00:00:00.000'],
  ])('wallTimeOf(%s, %s) → %s', (instant, zone, expected) =>
    expect(wallText(wallTimeOf(new Date(instant), zone))).toBe(expected),
  );
});

describe('parseZonedInput / marketWallTime', () => {
  it.each([
    ['2025-03-13T14:30:00Z', '2025-03-13T14:30:00.000Z'],
    ['2025-03-13T14:30Z', '2025-03-13T14:30:00.000Z'],
    ['2025-03-13t14:30:00z', '2025-03-13T14:30:00.000Z'],
    ['2025-03-13 14:30:00Z', '2025-03-13T14:30:00.000Z'],
    ['2025-03-13T14:30:00.5Z', '2025-03-13T14:30:00.500Z'],
    ['2025-03-13T14:30:00.021Z', '2025-03-13T14:30:00.021Z'],
    ['2025-03-13T15:30:00+01:00', '2025-03-13T14:30:00.000Z'],
    ['2025-03-13T15:30+0100', '2025-03-13T14:30:00.000Z'],
    ['2025-03-13T09:30:00-05:00', '2025-03-13T14:30:00.000Z'],
    ['2025-03-13T20:00:00+05:30', '2025-03-13T14:30:00.000Z'],
    ['2025-03-14T00:30+10:00', '2025-03-13T14:30:00.000Z'],
    ['2024-12-31T23:00:00-02:00', '2025-01-01T01:00:00.000Z'],
    ['2024-02-29T12:00:00-00:00', '2024-02-29T12:00:00.000Z'],
    [' 2025-03-13T14:30:00Z ', '2025-03-13T14:30:00.000Z'],
  ])('%j → %s', (input, expected) => expect(parseZonedInput(input, '--start')?.toISOString()).toBe(expected));

  it.each([
    '2025-03-13',
    '2025-03-13T14:30',
    '2025-03-13 14:30:15',
    '20250313',
    '202503131430',
    'today',
    '7d',
  ])('leaves %j to parseDateInput (undefined)', (input) =>
    expect(parseZonedInput(input, '--start')).toBeUndefined(),
  );

  it.each([
    '2025-03-13T14:30+25:00',
    '2025-03-13T14:30+24:00',
    '2025-03-13T14:30+05:60',
    '2025-03-13T14:30+5:00',
    '2025-03-13T14:30+05',
    '2025-03-13T14:30+05:00:00',
    '2025-03-13T14:30:00 +01:00',
    '2025-03-13T24:00Z',
    '2025-03-13T14:60Z',
    '2025-03-13T14:30:60Z',
    '2025-02-30T10:00Z',
    '2025-03-13T14:30:00.1234Z',
    '2025-03-13Z',
    '20250313T1430Z',
    '2025-03-13T14:30+01:00x',
  ])('rejects %j naming the flag', (input) =>
    expect(() => parseZonedInput(input, '--end')).toThrow(
      expect.objectContaining({
        code: 'MDGET_USAGE',
        message: `invalid --end '${input}': use YYYY-MM-DDTHH:MM[:SS[.fff]] with Z, ±HH:MM or ±HHMM, or no offset`,
      }),
    ),
  );

  it.each([
    ['2025-03-13T14:30:00Z', EASTERN, '2025-03-13T10:30:00.000', '20250313103000'],
    ['2025-03-13T14:30:00Z', CENTRAL, '2025-03-13T09:30:00.000', '20250313093000'],
    ['2025-03-13T15:30:00+01:00', EASTERN, '2025-03-13T10:30:00.000', '20250313103000'],
    ['2025-03-14T04:00:00Z', EASTERN, '2025-03-14T00:00:00.000', '20250314'],
    ['2025-01-15T05:30:00+05:30', CENTRAL, '2025-01-14T18:00:00.000', '20250114180000'],
    ['2024-11-03T06:30:00Z', CENTRAL, '2024-11-03T01:30:00.000', '20241103013000'],
    ['2024-11-03T07:30:00Z', CENTRAL, '2024-11-03T01:30:00.000', '20241103013000'],
  ])('%s in %s → wall clock %s, sent as %s', (input, zone, expectedWall, expectedSent) => {
    const time = marketWallTime(parseZonedInput(input, '--start')!, zone);
    expect([wallText(time), formatServiceDate(time)]).toEqual([expectedWall, expectedSent]);
  });
});
