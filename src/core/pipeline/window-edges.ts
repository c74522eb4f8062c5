import type { RecordKind } from '../model/record-shapes.js';
import {
  formatKey,
  keyLength,
  type SeriesRequest,
  type SeriesWindow,
  timeFieldIndex,
} from '../plan/series.js';
import { EdgeFilter, type KeyOf } from './edge-filter.js';
import { RangeFilter } from './range-filter.js';

/** Where a response's row keys are read, and the filter that keeps its rows inside what was asked. */
export interface WindowEdges {
  keyIndex: number;
  keyLength: number;
  /** Rows before this key are outside the request. */
  startKey: string | undefined;
  filter: EdgeFilter | RangeFilter;
}

/**
 * The edges of a time-series request (its window, or a continuation's start) or of an events request (its
 * dates); undefined for the others, whose rows carry no date to keep (docs/completeness.md).
 */
export function windowEdges(
  kind: RecordKind,
  fieldCount: number,
  series: SeriesRequest | undefined,
  dates: SeriesWindow | undefined,
  continuationFrom: string | undefined,
  keyOf: KeyOf,
): WindowEdges | undefined {
  const keyIndex = timeFieldIndex(kind, fieldCount);
  if (series) {
    const key = (time: Date | undefined) =>
      time && series.filterEnd ? formatKey(time, series.resolution) : undefined;
    // rows dated by a longer period's first day may precede its start: only cut windows keep their edges
    const startKey = continuationFrom ?? key(series.window.start);
    const endKey = key(series.window.end);
    return {
      keyIndex,
      keyLength: keyLength(series.resolution),
      startKey,
      filter: new EdgeFilter(keyOf, series.order, endKey, startKey),
    };
  }
  if (!dates) return undefined;
  const day = (time: Date | undefined) => time && formatKey(time, 'day');
  const startKey = day(dates.start);
  return {
    keyIndex,
    keyLength: keyLength('day'),
    startKey,
    filter: new RangeFilter(keyOf, startKey, day(dates.end)),
  };
}

/**
 * Whether a response's rows all lie before `startKey`: no row at or after it was kept, and `key` (the
 * row still to come that would show otherwise, if any) is before it too, or absent after dropped rows.
 */
export function allBeforeStart({ filter, startKey }: WindowEdges, key: string | undefined): boolean {
  if (startKey === undefined || filter.reachedStart) return false;
  return key === undefined ? filter.repeated > 0 : key < startKey;
}
