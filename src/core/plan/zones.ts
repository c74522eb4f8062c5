import { CENTRAL, marketZone } from '../time/dates.js';

/**
 * The zone the service speaks for a symbol, decided here and nowhere else: --source-tz when the user names
 * it; Central for nearby minutes, whose symbols are futures roots (ES) that the symbol rule would take for
 * equities; else the market's (Eastern for equities, Central for the rest). Requests are sent in it and
 * the service's timestamps are read in it (docs/time-zones.md).
 */
export function serviceZone(symbol: string, options: { sourceTimeZone?: string; nearby?: boolean }): string {
  if (options.sourceTimeZone !== undefined) return options.sourceTimeZone;
  return options.nearby ? CENTRAL : marketZone(symbol);
}
