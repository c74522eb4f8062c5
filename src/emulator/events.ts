/**
 * `queryevents.ashx` (docs/service.md#events): `SYMBOL,DATE,EVENT_TYPE,VALUE` for the known symbols of the
 * list, in request order then date ascending; unknown symbols are left out silently, as documented.
 */
import { DATA_START_DAY, lookupSymbol, type Market } from './catalogue.js';
import { dayOf, formatDay, isWeekend, MS_PER_DAY, ymdOf } from './dates.js';
import type { EmulatorOptions } from './options.js';
import { formatUnits } from './prices.js';
import { boolParam, type Context, dayParam, nowWall, requireParam } from './query.js';
import { rngFor } from './random.js';
import type { Block } from './records.js';

/** One corporate event. */
export interface MarketEvent {
  day: number;
  type: 'Split' | 'Dividend' | 'Earnings';
  value: string;
}

function businessDayOnOrAfter(day: number): number {
  let result = day;
  while (isWeekend(result)) result++;
  return result;
}

function splitText(from: number, to: number, notation: EmulatorOptions['splitNotation']): string {
  if (notation === 'ratio') return formatUnits(Math.round((from / to) * 10_000), 4);
  return `${from}${notation === '4-1' ? '-' : notation === '4:1' ? ':' : '/'}${to}`;
}

/** Every event of a market up to `lastDay`, date ascending. */
function marketEvents(
  market: Market,
  lastDay: number,
  notation: EmulatorOptions['splitNotation'],
): MarketEvent[] {
  const spec = market.events;
  if (!spec) return [];
  const events: MarketEvent[] = spec.splits.map((split) => ({
    day: split.day,
    type: 'Split',
    value: splitText(split.from, split.to, notation),
  }));
  for (let year = ymdOf(DATA_START_DAY).year; year <= ymdOf(lastDay).year; year++) {
    for (const month of spec.dividendMonths) {
      const rng = rngFor('dividend', market.code, year, month);
      const amount = Math.round(spec.dividendBase * (1 + 0.06 * (year - 2020)) * 10_000) / 10_000;
      events.push({
        day: businessDayOnOrAfter(dayOf(year, month, 6 + rng.int(8))),
        type: 'Dividend',
        value: formatUnits(Math.round(amount * 10_000), 4),
      });
    }
    for (const month of spec.earningsMonths) {
      const rng = rngFor('earnings', market.code, year, month);
      events.push({
        day: businessDayOnOrAfter(dayOf(year, month, 20 + rng.int(10))),
        type: 'Earnings',
        value: formatUnits(Math.round(spec.earningsBase * (0.7 + 0.6 * rng.next()) * 100), 2),
      });
    }
  }
  return events
    .filter((event) => event.day >= DATA_START_DAY && event.day <= lastDay)
    .sort((a, b) => a.day - b.day);
}

/** The response records of an events request. */
export function eventRecords(ctx: Context): Iterable<Block> {
  const symbols = requireParam(ctx, 'symbols');
  const startDay = dayParam(ctx, 'start');
  const endDay = dayParam(ctx, 'end');
  const wanted = new Set<MarketEvent['type']>();
  if (boolParam(ctx, 'splits', false)) wanted.add('Split');
  if (boolParam(ctx, 'dividends', false)) wanted.add('Dividend');
  if (boolParam(ctx, 'earnings', false)) wanted.add('Earnings');
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const symbol of symbols.split(',')) {
    const lookup = lookupSymbol(symbol);
    if (lookup.status !== 'ok' || lookup.instrument.type !== 'plain') continue;
    const { market } = lookup.instrument;
    if (seen.has(market.code)) continue;
    seen.add(market.code);
    const today = Math.floor(nowWall(ctx, market.zone) / MS_PER_DAY);
    for (const event of marketEvents(market, today, ctx.options.splitNotation)) {
      if (wanted.size && !wanted.has(event.type)) continue;
      if (startDay !== undefined && event.day < startDay) continue;
      if (endDay !== undefined && event.day >= endDay) continue;
      lines.push(`${market.code},${formatDay(event.day)},${event.type},${event.value}`);
    }
  }
  return lines.length ? [lines] : [];
}
