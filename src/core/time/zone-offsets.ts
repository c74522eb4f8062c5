/**
 * A zone's offsets through Intl, for every zone and year. Intl is slow (microseconds a call) and the
 * converter runs on every row of multi-gigabyte tick files, so offsets are asked once per UTC day and a
 * zone's transitions are found by bisection; rows then cost a few comparisons and additions.
 */

export const SECOND = 1000;
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
// tzdb offsets stay within ±16 h (local mean times included), so an instant more than a day away from a
// wall time never shows it: segments of the three UTC days around it decide it within this reach.
const REACH = 8 * HOUR;

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

export function offsetsOf(zone: string): ZoneOffsets {
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
export interface WallSpan {
  start: number;
  end: number;
  before: number;
  after: number;
}

/** How `zone` maps the wall time `wall` (ms of a WallTime), and the wall times around it that map alike. */
export function wallSpan(zone: ZoneOffsets, wall: number): WallSpan {
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

export function formatterFor(zone: string): Intl.DateTimeFormat {
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
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}
