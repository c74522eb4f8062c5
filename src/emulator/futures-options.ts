/**
 * `futuresoptions` (CSV) and `futuresoptions/json` (docs/service.md#futures-options, all assumed): options
 * EOD for one futures root and trading date, calls and puts around the money on the two nearest live series.
 */
import { type Contract, futuresRoot, nthContract, optionExpiryDay } from './catalogue.js';
import { formatDay } from './dates.js';
import { dailyBar, latestCompleteDay, monthCode } from './eod.js';
import { formatUnits, PriceFormat, toUnits } from './prices.js';
import { type Context, dayParam, fail, nowWall, requireParam } from './query.js';
import { rngFor } from './random.js';
import { isTradingDay } from './sessions.js';

/** One option's EOD record, all values already as text. */
export interface OptionRecord {
  symbol: string;
  underlying: string;
  type: 'Call' | 'Put';
  strike: string;
  expiration: string;
  date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  openInterest: string;
  impliedVolatility: string;
}

const STRIKES_EACH_SIDE = 4;

function decimalsOf(step: number): number {
  const text = String(step);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

function seriesRecords(contract: Contract, day: number): OptionRecord[] {
  const { spec, root } = contract;
  const format = new PriceFormat(root.decimals, root.tickUnits);
  const underlying = dailyBar(root, contract, day, format).close / 10 ** root.decimals;
  const expiry = optionExpiryDay(contract);
  const years = Math.max(expiry - day, 1) / 365;
  const sigma = 0.22 * root.volatility;
  const spread = underlying * sigma * Math.sqrt(years);
  const strikeDecimals = decimalsOf(spec.strikeStep);
  const atm = Math.round(underlying / spec.strikeStep);
  const records: OptionRecord[] = [];
  for (let k = atm - STRIKES_EACH_SIDE; k <= atm + STRIKES_EACH_SIDE; k++) {
    const strike = k * spec.strikeStep;
    const strikeText = formatUnits(Math.round(strike * 10 ** strikeDecimals), strikeDecimals);
    for (const type of ['Call', 'Put'] as const) {
      const rng = rngFor('option', contract.code, strikeText, type, day);
      const intrinsic = Math.max(type === 'Call' ? underlying - strike : strike - underlying, 0);
      const timeValue = 0.4 * spread * Math.exp(-(((strike - underlying) / (spread + 1e-9)) ** 2) / 2);
      const price = (value: number) =>
        Math.max(toUnits(value, spec.optionDecimals, spec.optionTickUnits), spec.optionTickUnits);
      const close = price(intrinsic + timeValue);
      const open = price((intrinsic + timeValue) * (0.95 + 0.1 * rng.next()));
      const high = Math.max(open, close) + spec.optionTickUnits * rng.int(5);
      const low = Math.max(Math.min(open, close) - spec.optionTickUnits * rng.int(5), spec.optionTickUnits);
      const text = (units: number) => formatUnits(units, spec.optionDecimals);
      records.push({
        symbol: `${root.code}${monthCode(contract.month)}${strikeText.replace('.', '')}${type[0]}`,
        underlying: contract.code,
        type,
        strike: strikeText,
        expiration: formatDay(expiry),
        date: formatDay(day),
        open: text(open),
        high: text(high),
        low: text(low),
        close: text(close),
        volume: String(Math.round(2000 * Math.exp(-Math.abs(k - atm) / 2) * (0.5 + rng.next()))),
        openInterest: String(Math.round(15000 * Math.exp(-Math.abs(k - atm) / 3) * (0.6 + rng.next()))),
        impliedVolatility: formatUnits(Math.round(sigma * (0.9 + 0.2 * rng.next()) * 10_000), 4),
      });
    }
  }
  return records;
}

/** The option records of a futures-options request (none for a non-trading or future date). */
export function futuresOptionRecords(ctx: Context): OptionRecord[] {
  const rootText = requireParam(ctx, 'root');
  const requestedDay = dayParam(ctx, 'date');
  const root = futuresRoot(rootText);
  if (!root) fail(ctx, 'unknownSymbol', { sym: rootText });
  const latest = latestCompleteDay(root, Math.floor(nowWall(ctx, root.zone) / 60_000));
  const day = requestedDay ?? latest;
  if (day > latest || !isTradingDay(root, day)) return [];
  const series: Contract[] = [];
  for (let nth = 1; series.length < 2 && nth <= 8; nth++) {
    const contract = nthContract(root, day, nth);
    if (optionExpiryDay(contract) >= day && contract.firstDay <= day) series.push(contract);
  }
  return series.flatMap((contract) => seriesRecords(contract, day));
}

/** CSV line of a record; the extended shape adds implied volatility (an assumed variant). */
export function optionCsvLine(record: OptionRecord, extended: boolean): string {
  const { symbol, underlying, type, strike, expiration, date, open, high, low, close, volume, openInterest } =
    record;
  const base = `${symbol},${underlying},${type},${strike},${expiration},${date},${open},${high},${low},${close},${volume},${openInterest}`;
  return extended ? `${base},${record.impliedVolatility}` : base;
}

/** JSON object text of a record: same fields in lowerCamelCase, numbers as JSON numbers. */
export function optionJson(record: OptionRecord, extended: boolean): string {
  const { symbol, underlying, type, strike, expiration, date, open, high, low, close, volume, openInterest } =
    record;
  const iv = extended ? `,"impliedVolatility":${record.impliedVolatility}` : '';
  return (
    `{"symbol":${JSON.stringify(symbol)},"underlying":${JSON.stringify(underlying)},"type":"${type}","strike":${strike},` +
    `"expiration":"${expiration}","date":"${date}","open":${open},"high":${high},"low":${low},"close":${close},` +
    `"volume":${volume},"openInterest":${openInterest}${iv}}`
  );
}
