import { addDays, startOfDay, type WallTime } from '../time/dates.js';

const DAY_MS = 86_400_000;

/** A [start, end) window in market wall-clock time. */
export interface Window {
  start: WallTime;
  end: WallTime;
}

/**
 * The range a ticks or minutes request covers when dates are left out
 * (docs/service.md#dates-times-and-time-zones): no start → the beginning of end's day (the day before when
 * end is a midnight, end being exclusive); no end → the end of start's day; neither → today.
 */
export function resolveDayRange(
  start: WallTime | undefined,
  end: WallTime | undefined,
  today: () => WallTime,
): Window {
  if (start && end) return { start, end };
  if (start) return { start, end: addDays(startOfDay(start), 1) };
  if (end) {
    const day = startOfDay(end);
    return { start: day.getTime() === end.getTime() ? addDays(day, -1) : day, end };
  }
  const day = today(); // only asked for when needed: Intl's first use costs ~25 ms of start-up
  return { start: day, end: addDays(day, 1) };
}

/** Splits a range at midnights into calendar-day windows (the service confines ticks to one day). */
export function planDayWindows(range: Window): Window[] {
  return planWindows(range, DAY_MS);
}

/**
 * Splits a range into windows of `sizeMs`: whole days are cut at midnights, shorter sizes at multiples of
 * the size after each midnight (a window never crosses a day: ticks are served one day per request).
 */
export function planWindows(range: Window, sizeMs: number): Window[] {
  const windows: Window[] = [];
  let cursor = range.start;
  while (cursor.getTime() < range.end.getTime()) {
    const day = startOfDay(cursor).getTime();
    const next =
      sizeMs >= DAY_MS
        ? addDays(new Date(day), Math.floor(sizeMs / DAY_MS))
        : new Date(day + (Math.floor((cursor.getTime() - day) / sizeMs) + 1) * sizeMs);
    const capped = Math.min(next.getTime(), day + (sizeMs >= DAY_MS ? Number.POSITIVE_INFINITY : DAY_MS));
    const end = capped < range.end.getTime() ? new Date(capped) : range.end;
    windows.push({ start: cursor, end });
    cursor = end;
  }
  return windows;
}

/**
 * Groups items into as few lists as keep each query under `maxBytes` (such servers cap the query at 2,048
 * characters; we stay under 2,000: docs/service.md#requests). `cost` is an item's encoded length plus its
 * comma.
 */
export function splitByLength<T>(items: readonly T[], cost: (item: T) => number, maxBytes: number): T[][] {
  const lists: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const c = cost(item);
    if (current.length > 0 && size + c > maxBytes) {
      lists.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += c;
  }
  if (current.length > 0) lists.push(current);
  return lists;
}

/** The i-th (1-based) of n deterministic shares of a plan: every n-th item from i (--shard i/n). */
export function shardOf<T>(items: readonly T[], index: number, count: number): T[] {
  return items.filter((_, position) => position % count === index - 1);
}
