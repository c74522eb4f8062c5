import { usageError } from '../model/errors.js';
import { assertTimeZone, UTC_FORM } from './time-zones.js';
import {
  DAY,
  daysFromCivil,
  daysInMonth,
  HOUR,
  MINUTE,
  offsetsOf,
  SECOND,
  wallSpan,
} from './zone-offsets.js';

/** Where converted timestamps go: 'utc' (written with Z) or an IANA zone (written with its offset). */
export type TimestampTarget = 'utc' | (string & {});

/** One response's conversion: the zone the service wrote, where to, and the response's row order. */
export interface TimestampConverterOptions {
  sourceZone: string;
  target: TimestampTarget;
  order: 'asc' | 'desc';
}

/** Converts one wire timestamp to ISO 8601 with an offset; dates and unparsable text come back unchanged. */
export type TimestampConverter = (text: string) => string;

/**
 * A converter for one response's timestamps (docs/time-zones.md#daylight-saving), keeping instants in row
 * order through a fold.
 */
export function createTimestampConverter(options: TimestampConverterOptions): TimestampConverter {
  // Minutes `YYYY-MM-DD HH:MM` and ticks `YYYY-MM-DD HH:MM:SS.fff` (also `…:SS`) become
  // `2025-03-13T14:30:00Z` or `2025-03-13T00:00:00.021-05:00`. A date names a trading day, not an
  // instant, so it stays as it is; so does anything else the converter cannot read.
  const { sourceZone, target, order } = options;
  // the rules checked these before any request (plan/rules.ts); named as the library names them
  assertTimeZone(sourceZone, 'sourceTimeZone');
  if (target !== UTC_FORM) assertTimeZone(target, 'timeZone');
  if (order !== 'asc' && order !== 'desc') throw usageError(`order '${order}': use asc or desc`);
  const source = offsetsOf(sourceZone);
  const zoned = target === UTC_FORM ? undefined : offsetsOf(target);
  const descending = order === 'desc';

  // The fold rule: asc takes the earliest instant not before the previous row, desc the latest not
  // after it; with nothing before, asc starts in the first pass (daylight) and desc in the second.
  let previous = descending ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  let dateKey = -1;
  let dateMs = 0;
  // Source wall times in [spanStart, spanEnd) share the offsets spanBefore/spanAfter (equal: one instant).
  let spanStart = 0;
  let spanEnd = 0;
  let spanBefore = 0;
  let spanAfter = 0;
  // Instants in [zoneStart, zoneEnd) share the target offset.
  let zoneStart = zoned ? 0 : Number.NEGATIVE_INFINITY;
  let zoneEnd = zoned ? 0 : Number.POSITIVE_INFINITY;
  let zoneOffset = 0;
  let suffix = 'Z';
  // The output up to the minutes ("2025-03-13T14:") changes once an hour: build it once an hour.
  let hourKey = Number.NaN;
  let prefix = '';

  return (text: string): string => {
    const length = text.length;
    if (length !== 16 && length !== 19 && length !== 23) return text;
    // Fixed positions, no regex: digits are checked one by one, separators by code.
    const y0 = text.charCodeAt(0) - 48;
    const y1 = text.charCodeAt(1) - 48;
    const y2 = text.charCodeAt(2) - 48;
    const y3 = text.charCodeAt(3) - 48;
    const mo0 = text.charCodeAt(5) - 48;
    const mo1 = text.charCodeAt(6) - 48;
    const d0 = text.charCodeAt(8) - 48;
    const d1 = text.charCodeAt(9) - 48;
    const h0 = text.charCodeAt(11) - 48;
    const h1 = text.charCodeAt(12) - 48;
    const mi0 = text.charCodeAt(14) - 48;
    const mi1 = text.charCodeAt(15) - 48;
    if (
      !isDigit(y0) ||
      !isDigit(y1) ||
      !isDigit(y2) ||
      !isDigit(y3) ||
      !isDigit(mo0) ||
      !isDigit(mo1) ||
      !isDigit(d0) ||
      !isDigit(d1) ||
      !isDigit(h0) ||
      !isDigit(h1) ||
      !isDigit(mi0) ||
      !isDigit(mi1) ||
      text.charCodeAt(4) !== 45 || // -
      text.charCodeAt(7) !== 45 ||
      text.charCodeAt(10) !== 32 || // space
      text.charCodeAt(13) !== 58 // :
    ) {
      return text;
    }
    let second = 0;
    let milli = 0;
    if (length !== 16) {
      const s0 = text.charCodeAt(17) - 48;
      const s1 = text.charCodeAt(18) - 48;
      if (!isDigit(s0) || !isDigit(s1) || text.charCodeAt(16) !== 58) return text;
      second = s0 * 10 + s1;
      if (length === 23) {
        const f0 = text.charCodeAt(20) - 48;
        const f1 = text.charCodeAt(21) - 48;
        const f2 = text.charCodeAt(22) - 48;
        if (!isDigit(f0) || !isDigit(f1) || !isDigit(f2) || text.charCodeAt(19) !== 46) return text;
        milli = f0 * 100 + f1 * 10 + f2;
      }
    }
    const hour = h0 * 10 + h1;
    const minute = mi0 * 10 + mi1;
    if (hour > 23 || minute > 59 || second > 59) return text;
    const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
    const month = mo0 * 10 + mo1;
    const day = d0 * 10 + d1;
    const key = year * 10_000 + month * 100 + day;
    if (key !== dateKey) {
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return text;
      dateKey = key;
      dateMs = daysFromCivil(year, month, day) * DAY;
    }
    const wall = dateMs + hour * HOUR + minute * MINUTE + second * SECOND + milli;

    if (wall < spanStart || wall >= spanEnd) {
      const span = wallSpan(source, wall);
      spanStart = span.start;
      spanEnd = span.end;
      spanBefore = span.before;
      spanAfter = span.after;
    }
    let utc = wall - spanBefore; // one instant, or a gap (offset before), or a fold's first pass
    if (spanBefore > spanAfter) {
      const later = wall - spanAfter;
      // A response holds one bar a minute, so a minute seen again is the other pass (a window ending at
      // 01:01 holds 01:00 of both and no step back); ticks share a millisecond within one pass.
      const repeats = length === 16;
      const takeLater = descending
        ? later < previous || (!repeats && later === previous)
        : utc < previous || (repeats && utc === previous);
      if (takeLater) utc = later;
    }
    previous = utc;

    if (utc < zoneStart || utc >= zoneEnd) {
      const segment = zoned!.segment(utc);
      zoneStart = segment.start;
      zoneEnd = segment.end;
      zoneOffset = segment.offset;
      suffix = formatOffset(zoneOffset);
    }
    const local = utc + zoneOffset;
    const localHour = Math.floor(local / HOUR);
    if (localHour !== hourKey) {
      hourKey = localHour;
      const iso = new Date(localHour * HOUR).toISOString();
      prefix = iso.slice(0, iso.length - 10); // toISOString always ends "MM:SS.sssZ"
    }
    const rest = local - localHour * HOUR;
    const clock = TWO_DIGITS[(rest / MINUTE) | 0] + ':' + TWO_DIGITS[((rest % MINUTE) / SECOND) | 0];
    return length === 23
      ? prefix + clock + '.' + THREE_DIGITS[rest % SECOND] + suffix
      : prefix + clock + suffix;
  };
}

const isDigit = (digit: number): boolean => digit >= 0 && digit <= 9;

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** ±HH:MM (±HH:MM:SS for the odd local mean time), as ISO 8601 writes an offset. */
function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const seconds = Math.abs(offsetMs) / SECOND;
  const hh = String(Math.floor(seconds / 3600)).padStart(2, '0');
  const mm = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
  const ss = seconds % 60;
  return `${sign}${hh}:${mm}${ss === 0 ? '' : ':' + String(ss).padStart(2, '0')}`;
}
