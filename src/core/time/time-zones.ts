import { usageError } from '../model/errors.js';
import type { WallTime } from '../model/wall-time.js';

/**
 * Time zones through Intl, for every zone and year. Intl is slow (microseconds a call) and the converter
 * runs on every row of multi-gigabyte tick files, so offsets are asked once per UTC day and a zone's
 * transitions are found by bisection; rows then cost a few comparisons and additions.
 *
 * Two rules hold everywhere in this file:
 * - A wall time in a spring-forward gap is read as if the clock had not yet moved forward: with the
 *   offset in force before the transition (America/New_York 2025-03-09 02:30 is read as 02:30 EST,
 *   07:30Z, shown as 03:30 EDT). It is the rule of java.time and of Temporal's 'compatible'.
 * - A wall time in an autumn fold has two instants; the caller says which (the converter by row order).
 */

const SECOND = 1000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
// tzdb offsets stay within ±16 h (local mean times included), so an instant more than a day away from a
// wall time never shows it: segments of the three UTC days around it decide it within this reach.
const REACH = 8 * HOUR;

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

/** True when Intl knows `name` as a time zone (IANA names and their aliases, in any case). */
export function isValidTimeZone(name: string): boolean {
  // Newer Intl (ECMA-402 2024) also takes offsets such as '+01:00' as zones: keep Node 20 and 24 alike.
  if (typeof name !== 'string' || !/^[A-Za-z]/.test(name)) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/** Returns quietly for a valid zone; otherwise throws a usage error naming the flag. */
export function assertTimeZone(name: string, flag: string): void {
  if (!isValidTimeZone(name)) {
    throw usageError(`${flag} '${name}': not an IANA time zone such as America/New_York or UTC`);
  }
}

/** The instant `zone`'s clocks show as `wall`: `which` picks a fold's pass; a gap takes the offset before. */
export function utcOfWallTime(wall: WallTime, zone: string, which: 'earlier' | 'later'): Date {
  const time = wall.getTime();
  const span = wallSpan(offsetsOf(zone), time);
  const isFold = span.before > span.after;
  return new Date(time - (isFold && which === 'later' ? span.after : span.before));
}

/** The wall clock of `zone` at `instant`, as a WallTime (UTC fields = that wall clock). */
export function wallTimeOf(instant: Date, zone: string): WallTime {
  const time = instant.getTime();
  return new Date(time + offsetsOf(zone).segment(time).offset);
}

/** A converter for one response's timestamps (spec §1.2), keeping instants in row order through a fold. */
export function createTimestampConverter(options: TimestampConverterOptions): TimestampConverter {
  // Minutes `YYYY-MM-DD HH:MM` and ticks `YYYY-MM-DD HH:MM:SS.fff` (also `…:SS`) become
  // `2025-03-13T14:30:00Z` or `2025-03-13T00:00:00.021-05:00`. A date names a trading day, not an
  // instant, so it stays as it is; so does anything else the converter cannot read.
  const { sourceZone, target, order } = options;
  assertTimeZone(sourceZone, '--source-tz');
  if (target !== 'utc') assertTimeZone(target, '--tz');
  if (order !== 'asc' && order !== 'desc') throw usageError(`--order '${order}': use asc or desc`);
  const source = offsetsOf(sourceZone);
  const zoned = target === 'utc' ? undefined : offsetsOf(target);
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

/** Instants [start, end) with one offset (ms, wall minus UTC). */
interface Segment {
  start: number;
  end: number;
  offset: number;
}

/** One UTC day of a zone: `before` until `transition`, `after` from it (none: transition = day end). */
interface DayOffsets {
  before: number;
  after: number;
  transition: number;
}

/**
 * A zone's offsets, asked of Intl once per UTC day and kept. Assumes at most one transition per UTC day:
 * tzdb puts transitions weeks or months apart.
 */
class ZoneOffsets {
  private readonly days = new Map<number, DayOffsets>();
  private readonly format: Intl.DateTimeFormat;

  constructor(zone: string) {
    this.format = formatterFor(zone); // an unknown zone throws here
  }

  /** The constant-offset segment holding `utc`, cut at the edges of its UTC day. */
  segment(utc: number): Segment {
    const day = Math.floor(utc / DAY);
    const start = day * DAY;
    const { before, after, transition } = this.day(day);
    return utc < transition
      ? { start, end: transition, offset: before }
      : { start: transition, end: start + DAY, offset: after };
  }

  /** Constant-offset segments covering the UTC days [firstDay, lastDay), neighbours of one offset merged. */
  segments(firstDay: number, lastDay: number): Segment[] {
    const list: Segment[] = [];
    const add = (start: number, end: number, offset: number) => {
      const tail = list[list.length - 1];
      if (tail && tail.offset === offset) tail.end = end;
      else if (end > start) list.push({ start, end, offset });
    };
    for (let day = firstDay; day < lastDay; day++) {
      const start = day * DAY;
      const { before, after, transition } = this.day(day);
      add(start, transition, before);
      add(transition, start + DAY, after);
    }
    return list;
  }

  private day(day: number): DayOffsets {
    let offsets = this.days.get(day);
    if (offsets === undefined) {
      const start = day * DAY;
      const end = start + DAY;
      const before = offsetAt(this.format, start);
      const after = offsetAt(this.format, end);
      offsets = { before, after, transition: before === after ? end : this.transition(start, end, before) };
      this.days.set(day, offsets);
    }
    return offsets;
  }

  /** The first whole second in (low, high] whose offset is not `before` (tzdb changes on whole seconds). */
  private transition(low: number, high: number, before: number): number {
    let lo = low;
    let hi = high;
    while (hi - lo > SECOND) {
      const mid = lo + Math.floor((hi - lo) / 2 / SECOND) * SECOND;
      if (offsetAt(this.format, mid) === before) lo = mid;
      else hi = mid;
    }
    return hi;
  }
}

// One ZoneOffsets a zone, so that its days are asked once a run.
const zoneOffsets = new Map<string, ZoneOffsets>();

function offsetsOf(zone: string): ZoneOffsets {
  let offsets = zoneOffsets.get(zone);
  if (offsets === undefined) {
    offsets = new ZoneOffsets(zone);
    zoneOffsets.set(zone, offsets);
  }
  return offsets;
}

/**
 * Wall times [start, end) around `wall` that map alike: `before` = `after` one instant (wall − offset);
 * `before` > `after` a fold (two instants); `before` < `after` a gap (no instant).
 */
interface WallSpan {
  start: number;
  end: number;
  before: number;
  after: number;
}

/** How `zone` maps the wall time `wall` (ms of a WallTime), and the wall times around it that map alike. */
function wallSpan(zone: ZoneOffsets, wall: number): WallSpan {
  const day = Math.floor(wall / DAY);
  const segments = zone.segments(day - 1, day + 2);
  // A segment shows the wall times [start + offset, end + offset): its image.
  const imageStart = (i: number) => segments[i]!.start + segments[i]!.offset;
  const imageEnd = (i: number) => segments[i]!.end + segments[i]!.offset;
  const hits: number[] = [];
  let below = 0; // the last segment whose image starts at or before `wall`
  for (let i = 0; i < segments.length; i++) {
    if (imageStart(i) <= wall) below = i;
    if (imageStart(i) <= wall && wall < imageEnd(i)) hits.push(i);
  }
  let start: number;
  let end: number;
  let first: number;
  let last: number;
  if (hits.length === 1) {
    first = last = hits[0]!;
    start = imageStart(first);
    end = imageEnd(first);
    for (let j = 0; j < first; j++) start = Math.max(start, imageEnd(j));
    for (let j = first + 1; j < segments.length; j++) end = Math.min(end, imageStart(j));
  } else if (hits.length > 1) {
    first = hits[0]!;
    last = hits[hits.length - 1]!;
    start = Math.max(imageStart(first), imageStart(last));
    end = Math.min(imageEnd(first), imageEnd(last));
  } else {
    first = below;
    last = Math.min(below + 1, segments.length - 1);
    start = imageEnd(first);
    end = imageStart(last);
  }
  return {
    start: Math.max(start, day * DAY - REACH),
    end: Math.min(end, (day + 1) * DAY + REACH),
    before: segments[first]!.offset,
    after: segments[last]!.offset,
  };
}

// Building a DateTimeFormat costs far more than using one; zones are few, so each is built once.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The offset of the zone at `utc` (ms, wall minus UTC), to the second as Intl shows it. */
function offsetAt(format: Intl.DateTimeFormat, utc: number): number {
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let isBeforeChrist = false;
  for (const part of format.formatToParts(utc)) {
    switch (part.type) {
      case 'era':
        isBeforeChrist = part.value === 'BC';
        break;
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value) % 24; // some ICU versions write midnight as 24 even with h23
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
    }
  }
  const wall =
    daysFromCivil(isBeforeChrist ? 1 - year : year, month, day) * DAY +
    hour * HOUR +
    minute * MINUTE +
    second * SECOND;
  return wall - (utc - (((utc % SECOND) + SECOND) % SECOND));
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil; any year). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}
