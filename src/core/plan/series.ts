import type { RecordKind } from '../model/record-shapes.js';
import { addDays, type WallTime } from '../time/dates.js';

/**
 * A time-series request (ticks, minutes, EOD): the window it asks for and what a continuation needs.
 * Rows are grouped by their time key at the resolution the service takes in `start`/`end`, so a
 * continuation can restart exactly at a key (docs/completeness.md#continuations).
 */
export interface SeriesRequest {
  /** [start, end) in market wall-clock time; an open side is undefined. */
  window: SeriesWindow;
  order: 'asc' | 'desc';
  resolution: Resolution;
  /**
   * Drop rows at or past the window's end: on for ticks, minutes and daily EOD, whose windows mdget cuts;
   * off for longer EOD periods, whose rows are dated by the period's first day.
   */
  filterEnd: boolean;
  /** The user's own --maxrecords: the rows they asked for, never completed by further requests. */
  userLimit?: number;
  /** The window reaches past the data cut-off (now, in the market's zone): its data may still grow. */
  provisional: boolean;
}

export interface SeriesWindow {
  start?: WallTime;
  end?: WallTime;
}

/** Granularity of `start`/`end` on the wire and of row keys: ticks by second, bars by minute, EOD by day. */
export type Resolution = 'second' | 'minute' | 'day';

const KEY_LENGTH: Record<Resolution, number> = { second: 19, minute: 16, day: 10 };
const UNIT_MS: Record<Resolution, number> = { second: 1000, minute: 60_000, day: 86_400_000 };

/** Characters of a row's time field that make its key (`YYYY-MM-DD HH:MM:SS`, `… HH:MM`, `YYYY-MM-DD`). */
export const keyLength = (resolution: Resolution): number => KEY_LENGTH[resolution];

/** A wall-clock time as a row key of that resolution, comparable as a string with keys read from rows. */
export function formatKey(time: WallTime, resolution: Resolution): string {
  return time.toISOString().slice(0, KEY_LENGTH[resolution]).replace('T', ' ');
}

/** The wall-clock time a row key stands for (its start). */
export function keyTime(key: string, resolution: Resolution): WallTime {
  const text =
    resolution === 'day'
      ? `${key}T00:00:00Z`
      : `${key.replace(' ', 'T')}${resolution === 'minute' ? ':00' : ''}Z`;
  return new Date(text);
}

/** The first wall-clock time after the whole of a key (a desc continuation's exclusive end). */
function afterKey(key: string, resolution: Resolution): WallTime {
  const time = keyTime(key, resolution);
  return resolution === 'day' ? addDays(time, 1) : new Date(time.getTime() + UNIT_MS[resolution]);
}

/**
 * The index of the time field in a service line of `fieldCount` fields (docs/service.md#endpoints): ticks and
 * plain minutes lead with it; a contract column (nearby, `ROOT*n`) or the symbol (EOD, events) comes first.
 */
export function timeFieldIndex(kind: RecordKind, fieldCount: number): number {
  switch (kind) {
    case 'ticks':
      return 0;
    case 'minutes':
      return fieldCount === 8 ? 1 : 0;
    case 'nearbyMinutes':
    case 'eod':
    case 'events':
      return 1;
    default:
      return 0;
  }
}

/**
 * The continuation of a window cut after rows up to `key` (the key group held back): ascending, the
 * rest from that key on; descending (newest first), everything up to and including that key.
 */
export function continuationWindow(series: SeriesRequest, key: string): SeriesWindow {
  const at = keyTime(key, series.resolution);
  return series.order === 'desc'
    ? {
        ...(series.window.start ? { start: series.window.start } : {}),
        end: afterKey(key, series.resolution),
      }
    : { start: at, ...(series.window.end ? { end: series.window.end } : {}) };
}
