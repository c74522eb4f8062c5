/**
 * `queryminutedaterange.ashx` and `queryeoddaterange.ashx` (docs/service.md#date-ranges, all assumed): one
 * line per known symbol in request order, `SYMBOL,FIRST,LAST`, both inclusive; `dateRangeShape` can add a
 * column.
 */
import { DATA_START_DAY, type Instrument, lookupSymbol } from './catalogue.js';
import { formatDay, formatMinute, MINUTES_PER_DAY } from './dates.js';
import { latestCompleteDay } from './eod.js';
import { parseHoursRange } from './options.js';
import { type Context, fail, nowWall } from './query.js';
import type { Block } from './records.js';
import { type Hours, isTradingDay, sessionSegments } from './sessions.js';

function dayRange(instrument: Instrument, latest: number): [number, number] | undefined {
  const { market } = instrument;
  let first = DATA_START_DAY;
  let last = latest;
  if (instrument.type === 'contract') {
    first = Math.max(first, instrument.contract.firstDay);
    last = Math.min(last, instrument.contract.expiryDay);
  }
  while (first <= last && !isTradingDay(market, first)) first++;
  while (last >= first && !isTradingDay(market, last)) last--;
  return first <= last ? [first, last] : undefined;
}

function countTradingDays(instrument: Instrument, first: number, last: number): number {
  let count = 0;
  for (let day = first; day <= last; day++) if (isTradingDay(instrument.market, day)) count++;
  return count;
}

/** The response records of a date-range request for the minute or the EOD database. */
export function dateRangeRecords(ctx: Context, database: 'minutes' | 'eod'): Iterable<Block> {
  const list = ctx.params.get('symbols') ?? ctx.params.get('symbol');
  if (list === undefined) fail(ctx, 'missingParameter', { name: 'symbols' });
  const formT = parseHoursRange(ctx.options.formTHours) ?? [240, 1200];
  const lines: string[] = [];
  for (const symbol of list.split(',')) {
    const lookup = lookupSymbol(symbol);
    if (lookup.status !== 'ok') continue;
    const { instrument } = lookup;
    const nowMinute = Math.floor(nowWall(ctx, instrument.market.zone) / 60_000);
    const range = dayRange(instrument, latestCompleteDay(instrument.market, nowMinute));
    if (!range) continue;
    const [firstDay, lastDay] = range;
    let first: string;
    let last: string;
    if (database === 'eod') {
      first = formatDay(firstDay);
      last = formatDay(lastDay);
    } else {
      // equities: the minute database holds the Form-T hours too (04:00 .. 19:59)
      const hours: Hours = instrument.market.kind === 'equity' ? { formT } : 'minutes';
      const firstSegments = sessionSegments(instrument.market, firstDay, hours);
      const lastSegments = sessionSegments(instrument.market, lastDay, hours);
      first = formatMinute(firstSegments[0]?.from ?? firstDay * MINUTES_PER_DAY);
      last = formatMinute((lastSegments[lastSegments.length - 1]?.to ?? lastDay * MINUTES_PER_DAY + 1) - 1);
    }
    const count =
      ctx.options.dateRangeShape === 'symbol-first-last-count'
        ? `,${countTradingDays(instrument, firstDay, lastDay)}`
        : '';
    lines.push(`${instrument.symbol},${first},${last}${count}`);
  }
  return lines.length ? [lines] : [];
}
