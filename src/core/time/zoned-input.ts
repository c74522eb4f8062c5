import { usageError } from '../model/errors.js';
import type { WallTime } from '../model/wall-time.js';
import { wallTimeOf } from './time-zones.js';

/**
 * --start/--end with an offset or Z: an instant, converted to the market's wall clock
 * (docs/time-zones.md#dates-on-the-command-line). Forms without one stay with parseDateInput, which never
 * shifts a time.
 */

const ZONED =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/;

/**
 * The instant of `YYYY-MM-DDTHH:MM[:SS[.fff]]` + `Z`/`±HH:MM`/`±HHMM`; undefined without an offset. A
 * refusal names `flag` and carries `option`, the option it is about.
 */
export function parseZonedInput(text: string, flag: string, option?: string): Date | undefined {
  const value = text.trim();
  // An offset shows as a final Z, a '+', or a '-' past the date: then it is ours to accept or refuse.
  const hasOffset = /[Zz]$/.test(value) || value.includes('+') || value.indexOf('-', 10) !== -1;
  if (!hasOffset) return undefined;
  const m = ZONED.exec(value);
  if (m) {
    const [year, month, day, hour, minute, second = 0] = m.slice(1, 7).map((x) => Number(x ?? 0));
    const milli = Number((m[7] ?? '').padEnd(3, '0'));
    const offsetHours = Number(m[9] ?? 0);
    const offsetMinutes = Number(m[10] ?? 0);
    const date = new Date(0);
    // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
    date.setUTCFullYear(year!, month! - 1, day!);
    date.setUTCHours(hour!, minute!, second, milli);
    const valid =
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month! - 1 &&
      date.getUTCDate() === day &&
      hour! < 24 &&
      minute! < 60 &&
      second < 60 &&
      offsetHours < 24 &&
      offsetMinutes < 60;
    if (valid) {
      const offsetMs = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
      return new Date(date.getTime() - offsetMs);
    }
  }
  throw usageError(
    `invalid ${flag} '${text}': use YYYY-MM-DDTHH:MM[:SS[.fff]] with Z, ±HH:MM or ±HHMM, or no offset`,
    option,
  );
}

/** The market's wall clock at `instant`: what --start/--end send (the service takes no offset). */
export function marketWallTime(instant: Date, marketZone: string): WallTime {
  // The two instants of an autumn fold give one wall time: the service cannot tell them apart either.
  return wallTimeOf(instant, marketZone);
}
