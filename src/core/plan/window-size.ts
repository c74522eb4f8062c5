import { isEquitySymbol } from '../time/dates.js';

/**
 * How long the windows of a long range are (docs/completeness.md#windows): as many days as keep a window's
 * expected rows under a target, from the market's session length and the bar interval, not a fixed number of
 * days. The target stays under any cap the run knows (--max-rows), else under the legacy 14,000 rows a
 * version of the service advertised, so a window is rarely cut and continuations stay the exception.
 */
export const DEFAULT_WINDOW_ROWS = 10_000;

const DAY_MS = 86_400_000;

/** Minutes a market trades in a calendar day, at most (the sessions of docs/completeness.md#windows). */
export function sessionMinutes(symbol: string, variant: 'minutes' | 'nearby' | 'form-t' = 'minutes'): number {
  if (variant === 'form-t') return 16 * 60; // 04:00-20:00 ET
  if (isEquitySymbol(symbol)) return 390; // 09:30-16:00 ET
  if (symbol.startsWith('^') || symbol.startsWith('$')) return 24 * 60;
  return 23 * 60; // futures: 17:00-16:00 CT with a one-hour break
}

/** Rows an EOD request holds per calendar day, at most, for a bar period. */
export function eodRowsPerDay(period: string | undefined): number {
  switch (period) {
    case 'weekly':
      return 1 / 5;
    case 'monthly':
      return 1 / 20;
    case 'quarterly':
      return 1 / 60;
    case 'yearly':
      return 1 / 250;
    default:
      return 1;
  }
}

/** Window length in milliseconds for `rowsPerDay`: whole days, at least one, under the row target. */
export function windowMs(rowsPerDay: number, maxRows?: number): number {
  const target = maxRows === undefined ? DEFAULT_WINDOW_ROWS : Math.max(1, Math.floor(maxRows * 0.8));
  return Math.max(1, Math.floor(target / rowsPerDay)) * DAY_MS;
}
