/**
 * `queryeod.ashx` (docs/service.md#end-of-day-bars):
 * `SYMBOL,DATE,OPEN,HIGH,LOW,CLOSE,VOLUME[,OPEN_INTEREST]`, 7 fields for everything but futures, 8 for
 * futures. EOD responses are small, so they are built in memory.
 */
import {
  type Contract,
  contractOf,
  DATA_START_DAY,
  type Instrument,
  type Market,
  MONTH_CODES,
  nthContract,
} from './catalogue.js';
import { formatDay, MINUTES_PER_DAY, weekdayOf, ymdOf } from './dates.js';
import { carryFactor, levelAt, PriceFormat } from './prices.js';
import {
  boolParam,
  type Context,
  choiceParam,
  dayParam,
  fail,
  intParam,
  nowWall,
  requireParam,
  resolveSymbol,
  selectionOf,
  trendParam,
} from './query.js';
import { rngFor } from './random.js';
import { arraySeries, type Block, selectRecords } from './records.js';
import { isTradingDay, sessionSegments } from './sessions.js';

/** One daily bar, prices as integers of 10^-decimals. */
export interface DailyBar {
  day: number;
  symbol: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  totalVolume: number;
  openInterest: number;
}

const PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
type Period = (typeof PERIODS)[number];
const VOLUMES = ['contract', 'total', 'sum', 'sumcontract', 'sumtotal'] as const;

/** Minute numbers of a trading day's first and last traded minute (regular session for equities). */
function sessionBounds(market: Market, day: number): [number, number] {
  const segments = sessionSegments(market, day, 'minutes');
  const first = segments[0];
  const last = segments[segments.length - 1];
  return first && last ? [first.from, last.to] : [day * MINUTES_PER_DAY, day * MINUTES_PER_DAY];
}

/** The last trading day whose session has closed by `nowMinute` (wall clock of the market). */
export function latestCompleteDay(market: Market, nowMinute: number): number {
  let day = Math.floor(nowMinute / MINUTES_PER_DAY) + 1;
  while (!isTradingDay(market, day) || sessionBounds(market, day)[1] > nowMinute) day--;
  return day;
}

function contractRank(contract: Contract, day: number): number {
  let rank = 1;
  while (nthContract(contract.root, day, rank).code !== contract.code && rank < 12) rank++;
  return rank;
}

/** The daily bar of a market, or of one futures contract, on a trading day. */
export function dailyBar(
  market: Market,
  contract: Contract | undefined,
  day: number,
  format: PriceFormat,
): DailyBar {
  const key = contract?.code ?? market.code;
  const rng = rngFor('eod', key, day);
  const factor = contract ? carryFactor(contract, day) : 1;
  const [openMinute, closeMinute] = sessionBounds(market, day);
  let high = Number.NEGATIVE_INFINITY;
  let low = Number.POSITIVE_INFINITY;
  for (let minute = openMinute; minute <= closeMinute; minute += 15) {
    const level = levelAt(market, minute) * factor;
    high = Math.max(high, level);
    low = Math.min(low, level);
  }
  const open = format.units(levelAt(market, openMinute) * factor);
  const close = format.units(levelAt(market, closeMinute) * factor);
  const tick = format.tickUnits;
  const dayVolume = market.dailyVolume * (0.6 + 0.8 * rngFor('eodvol', market.code, day).next());
  const share = contract ? Math.exp(-1.6 * (contractRank(contract, day) - 1)) : 1;
  const life = contract ? (day - contract.firstDay + 1) / (contract.expiryDay - contract.firstDay + 2) : 0;
  return {
    day,
    symbol: contract?.code ?? market.code,
    open,
    high: Math.max(open, close, format.units(high)) + tick * rng.int(6),
    low: Math.min(open, close, format.units(low)) - tick * rng.int(6),
    close,
    volume: Math.round(dayVolume * share * (0.8 + 0.4 * rng.next())),
    totalVolume: Math.round(dayVolume * 1.15),
    openInterest: contract
      ? Math.round(market.dailyVolume * 2.5 * Math.sin(Math.PI * life) * share) + 100
      : 0,
  };
}

interface EodRequest {
  instrument: Instrument;
  period: Period;
  mode: '' | 'nearest' | 'continue';
  volume: (typeof VOLUMES)[number];
  backadjust: boolean;
  rollDays: number;
  nearby: number;
  splits: boolean;
  dividends: boolean;
}

/** The contract used on `day`, or undefined when the series has none that day. */
function contractOnDay(request: EodRequest, day: number): Contract | undefined {
  const { instrument } = request;
  const root = instrument.market;
  if (request.mode === 'nearest') return nthContract(root, day, request.nearby, request.rollDays);
  if (request.mode === 'continue') {
    const month =
      instrument.type === 'contract'
        ? instrument.contract.month
        : nthContract(root, day, instrument.type === 'nearby' ? instrument.nth : 1).month;
    for (let year = ymdOf(day).year; ; year++) {
      const contract = contractOf(root, year, month);
      if (contract && contract.expiryDay - request.rollDays > day) return contract;
    }
  }
  if (instrument.type === 'nearby') return nthContract(root, day, instrument.nth);
  if (instrument.type === 'contract') {
    const { contract } = instrument;
    return day >= contract.firstDay && day <= contract.expiryDay ? contract : undefined;
  }
  return undefined;
}

/** Split and dividend factors that turn the adjusted series into raw prices (splits/dividends=false). */
function rawFactor(market: Market, request: EodRequest, day: number): { price: number; volume: number } {
  let price = 1;
  let volume = 1;
  const events = market.events;
  if (!events) return { price, volume };
  if (!request.splits) {
    for (const split of events.splits) {
      if (split.day > day) {
        price *= split.from / split.to;
        volume /= split.from / split.to;
      }
    }
  }
  if (!request.dividends && events.dividendMonths.length) {
    const { year, month } = ymdOf(day);
    const { year: lastYear } = ymdOf(DATA_START_DAY + 3650);
    const later =
      (lastYear - year) * events.dividendMonths.length +
      events.dividendMonths.filter((m) => m > month).length;
    price *= 1 + 0.003 * later;
  }
  return { price, volume };
}

function dailyBars(request: EodRequest, firstDay: number, lastDay: number): DailyBar[] {
  const { market } = request.instrument;
  const format = new PriceFormat(market.decimals, market.tickUnits);
  const bars: DailyBar[] = [];
  for (let day = firstDay; day <= lastDay; day++) {
    if (!isTradingDay(market, day)) continue;
    const contract = market.futures ? contractOnDay(request, day) : undefined;
    if (market.futures && !contract) continue;
    const bar = dailyBar(market, contract, day, format);
    // a plain contract request echoes the symbol as asked (ESM5 stays ESM5)
    if (request.instrument.type === 'contract' && !request.mode) bar.symbol = request.instrument.symbol;
    const raw = rawFactor(market, request, day);
    if (raw.price !== 1) {
      for (const field of ['open', 'high', 'low', 'close'] as const)
        bar[field] = format.units((bar[field] * raw.price) / 10 ** format.decimals);
      bar.volume = Math.round(bar.volume * raw.volume);
    }
    bars.push(bar);
  }
  if (request.backadjust) backAdjust(bars, request, format);
  return bars;
}

/** Shifts older contracts by the gap between the new and the old contract at each roll. */
function backAdjust(bars: DailyBar[], request: EodRequest, format: PriceFormat): void {
  let shift = 0;
  for (let i = bars.length - 1; i > 0; i--) {
    const newer = bars[i] as DailyBar;
    const older = bars[i - 1] as DailyBar;
    if (newer.symbol !== older.symbol) {
      const next = contractOnDay(request, newer.day);
      if (next) shift += dailyBar(request.instrument.market, next, older.day, format).close - older.close;
    }
    if (shift) for (const field of ['open', 'high', 'low', 'close'] as const) older[field] += shift;
  }
}

function periodKey(period: Period, day: number): number {
  const { year, month } = ymdOf(day);
  switch (period) {
    case 'daily':
      return day;
    case 'weekly':
      return day - ((weekdayOf(day) + 6) % 7);
    case 'monthly':
      return year * 12 + month;
    case 'quarterly':
      return year * 4 + Math.floor((month - 1) / 3);
    case 'yearly':
      return year;
  }
}

function periodBars(bars: DailyBar[], request: EodRequest, useLast: boolean): DailyBar[] {
  const sums = request.volume.startsWith('sum');
  const total = request.volume === 'total' || request.volume === 'sumtotal';
  const groups: DailyBar[][] = [];
  let lastKey: number | undefined;
  for (const bar of bars) {
    const key = periodKey(request.period, bar.day);
    if (key !== lastKey) groups.push([]);
    groups[groups.length - 1]?.push(bar);
    lastKey = key;
  }
  return groups.map((group) => {
    const first = group[0] as DailyBar;
    const last = group[group.length - 1] as DailyBar;
    const volumes = group.map((bar) => (total ? bar.totalVolume : bar.volume));
    const volumeSum = volumes.reduce((a, b) => a + b, 0);
    return {
      day: useLast ? last.day : first.day,
      symbol: useLast ? last.symbol : first.symbol,
      open: first.open,
      high: Math.max(...group.map((bar) => bar.high)),
      low: Math.min(...group.map((bar) => bar.low)),
      close: last.close,
      // weekly and longer: plain = average of daily volumes, sum* = their sum
      volume: sums ? volumeSum : Math.round(volumeSum / group.length),
      totalVolume: last.totalVolume,
      openInterest: last.openInterest,
    };
  });
}

/** Parses `data`: a period plus an optional suffix that only futures act on. */
function parseData(ctx: Context): { period: Period; mode: '' | 'nearest' | 'continue' } {
  const value = ctx.params.get('data');
  if (value === undefined) return { period: 'daily', mode: '' };
  const match = /^(daily|weekly|monthly|quarterly|yearly)(nearest|continue)?$/.exec(value.toLowerCase());
  if (!match) fail(ctx, 'invalidValue', { name: 'data', value });
  return { period: match[1] as Period, mode: (match[2] ?? '') as '' | 'nearest' | 'continue' };
}

/** The response records of an EOD request, in output order. */
export function eodRecords(ctx: Context): Iterable<Block> {
  const symbol = requireParam(ctx, 'symbol');
  const startDay = dayParam(ctx, 'start');
  const endDay = dayParam(ctx, 'end');
  const { period, mode: asked } = parseData(ctx);
  const volume = choiceParam(ctx, 'volume', VOLUMES, 'contract');
  const backadjust = boolParam(ctx, 'backadjust', false);
  const daysToExpiration = intParam(ctx, 'daystoexpiration', 0, 60) ?? 1;
  const contractRoll = choiceParam(ctx, 'contractroll', ['expiration', 'combined'], 'expiration');
  const nearby = intParam(ctx, 'nearby', 1, 12) ?? 1;
  const splits = boolParam(ctx, 'splits', true);
  const dividends = boolParam(ctx, 'dividends', true);
  const trend = trendParam(ctx);
  // maxrecords is ignored when start is set, as documented
  const selection = selectionOf(ctx, startDay !== undefined, endDay !== undefined, startDay !== undefined);
  const instrument = resolveSymbol(ctx, symbol);
  const { market } = instrument;
  // the vendor's manual: nearest and continue on an equity return its plain records
  const mode = market.futures ? asked : '';
  const request: EodRequest = {
    instrument,
    period,
    mode,
    volume,
    backadjust,
    // combined rolls by volume and open interest: modelled as a roll 8 days before expiry (the real rule
    // is unknown)
    rollDays: contractRoll === 'combined' && mode === 'nearest' ? 8 : mode ? daysToExpiration : 0,
    nearby,
    splits,
    dividends,
  };
  const nowMinute = Math.floor(nowWall(ctx, market.zone) / 60_000);
  const firstDay = Math.max(startDay ?? DATA_START_DAY, DATA_START_DAY);
  // the vendor's manual: "records up to, and including, this value"; eodEnd=exclusive keeps the
  // reading that came before it (docs/service.md#end-of-day-bars)
  const lastRequested =
    ctx.options.eodEnd === 'inclusive' ? endDay : endDay === undefined ? undefined : endDay - 1;
  const lastDay = Math.min(lastRequested ?? Number.MAX_SAFE_INTEGER, latestCompleteDay(market, nowMinute));
  const bars =
    lastDay >= firstDay
      ? periodBars(dailyBars(request, firstDay, lastDay), request, ctx.options.periodDate === 'last')
      : [];
  const format = new PriceFormat(market.decimals, market.tickUnits);
  const lines = bars.map((bar, i) => {
    const date = formatDay(bar.day);
    if (trend) {
      const window = bars.slice(Math.max(0, i - 9), i + 1);
      const support = Math.min(...window.map((b) => b.low));
      const resistance = Math.max(...window.map((b) => b.high));
      return `${bar.symbol},${date},${format.text(support)},${format.text(resistance)}`;
    }
    const prices = `${format.text(bar.open)},${format.text(bar.high)},${format.text(bar.low)},${format.text(bar.close)}`;
    const shownVolume = market.kind === 'index' ? '' : String(bar.volume);
    const openInterest = market.futures ? `,${bar.openInterest}` : '';
    return `${bar.symbol},${date},${prices},${shownVolume}${openInterest}`;
  });
  return selectRecords(arraySeries(lines), selection);
}

/** Month code of a contract month (for futures-options symbols). */
export function monthCode(month: number): string {
  return MONTH_CODES[month - 1] ?? '?';
}
