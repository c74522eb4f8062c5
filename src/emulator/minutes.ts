/**
 * Minute bars: `queryminutes.ashx`, `querynearbyminutes.ashx`, `queryformtminutes.ashx`
 * (docs/service.md#minute-bars). One block per trading day; bars of `interval` minutes aggregate whole
 * one-minute bars.
 */
import {
  type Contract,
  contractFor,
  DATA_START_DAY,
  futuresRoot,
  type Instrument,
  type Market,
} from './catalogue.js';
import { formatMinute, MINUTES_PER_DAY, MS_PER_DAY, MS_PER_MINUTE, ymdOf } from './dates.js';
import { parseHoursRange } from './options.js';
import { carryFactor, levelAt, PriceFormat } from './prices.js';
import {
  type Context,
  dateParam,
  fail,
  intParam,
  nowWall,
  requireParam,
  resolveSymbol,
  selectionOf,
  trendParam,
} from './query.js';
import { rngFor } from './random.js';
import { type Block, type Series, selectRecords } from './records.js';
import { daySlots, type Hours, type Slot, tradingDayOf } from './sessions.js';

/** Which minute endpoint is asked. */
export type MinuteVariant = 'minutes' | 'nearby' | 'formT';

/** A one-minute or aggregated bar, prices as integers of 10^-decimals. */
export interface Bar {
  start: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  repeat: boolean;
}

/** The one-minute bar of a slot, or undefined for a minute without trades (no line). */
function minuteBar(
  market: Market,
  key: string,
  slot: Slot,
  factor: number,
  format: PriceFormat,
): Bar | undefined {
  const rng = rngFor('bar', key, slot.minute, slot.repeat ? 'r' : '');
  const minuteOfDay = slot.minute - Math.floor(slot.minute / MINUTES_PER_DAY) * MINUTES_PER_DAY;
  const quiet = market.kind === 'equity' ? minuteOfDay < 570 || minuteOfDay >= 960 : slot.weight < 0.5;
  const skipChance = market.kind === 'index' ? 0 : quiet ? (market.kind === 'equity' ? 0.15 : 0.04) : 0;
  if (rng.next() < skipChance) return undefined;
  const open = format.units(levelAt(market, slot.minute) * factor);
  const close = format.units(levelAt(market, slot.minute + 1) * factor);
  const tick = format.tickUnits;
  return {
    start: slot.minute,
    open,
    high: Math.max(open, close) + tick * rng.int(4),
    low: Math.min(open, close) - tick * rng.int(4),
    close,
    volume: Math.max(
      1,
      Math.round(((market.dailyVolume * slot.weight) / slot.dayWeight) * (0.3 + 1.4 * rng.next())),
    ),
    repeat: slot.repeat,
  };
}

interface MinutePlan {
  instrument: Instrument;
  market: Market;
  withContract: boolean;
  interval: number;
  fromMinute: number;
  toMinute: number;
  firstDay: number;
  lastDay: number;
  hours: Hours;
  trend: boolean;
  format: PriceFormat;
  align: 'clock' | 'session';
  labelEnd: boolean;
}

function aggregate(bars: Bar[], plan: MinutePlan, sessionOpen: number): Bar[] {
  if (plan.interval === 1) return bars;
  const out: Bar[] = [];
  let current: Bar | undefined;
  for (const bar of bars) {
    // buckets are multiples of `interval` after midnight (or the session open): the service is not known to
    // say
    const origin =
      plan.align === 'clock' ? Math.floor(bar.start / MINUTES_PER_DAY) * MINUTES_PER_DAY : sessionOpen;
    const start = origin + Math.floor((bar.start - origin) / plan.interval) * plan.interval;
    if (current && current.start === start && current.repeat === bar.repeat) {
      current.high = Math.max(current.high, bar.high);
      current.low = Math.min(current.low, bar.low);
      current.close = bar.close;
      current.volume += bar.volume;
    } else {
      current = { ...bar, start };
      out.push(current);
    }
  }
  return out.filter((bar) => bar.start >= plan.fromMinute);
}

function dayLines(plan: MinutePlan, slots: Slot[], contract: Contract | undefined): Block {
  const { market, format } = plan;
  const day = slots[0]?.day ?? 0;
  const factor = contract ? carryFactor(contract, day) : 1;
  const key = contract?.code ?? market.code;
  const bars: Bar[] = [];
  for (const slot of slots) {
    const bar = minuteBar(market, key, slot, factor, format);
    if (bar) bars.push(bar);
  }
  const aggregated = aggregate(bars, plan, slots[0]?.sessionOpen ?? 0);
  const dayOfMonth = ymdOf(day).day;
  const prefix = plan.withContract && contract ? `${contract.code},` : '';
  const lines: Block = [];
  for (let i = 0; i < aggregated.length; i++) {
    const bar = aggregated[i] as Bar;
    const time = formatMinute(plan.labelEnd ? bar.start + plan.interval : bar.start);
    if (plan.trend) {
      let low = bar.low;
      let high = bar.high;
      for (let back = Math.max(0, i - 19); back < i; back++) {
        low = Math.min(low, (aggregated[back] as Bar).low);
        high = Math.max(high, (aggregated[back] as Bar).high);
      }
      lines.push(`${time},${format.text(low)},${format.text(high)}`);
      continue;
    }
    const volume = market.kind === 'index' ? '' : String(bar.volume);
    lines.push(
      `${prefix}${time},${dayOfMonth},${format.text(bar.open)},${format.text(bar.high)},${format.text(bar.low)},${format.text(bar.close)},${volume}`,
    );
  }
  return lines;
}

function minuteSeries(plan: MinutePlan): Series {
  function* blocks(backward: boolean): Generator<Block> {
    const { market, firstDay, lastDay, hours, fromMinute, toMinute } = plan;
    for (const slots of daySlots(market, firstDay, lastDay, hours, fromMinute, toMinute, backward)) {
      const day = slots[0]?.day ?? 0;
      const contract = contractFor(plan.instrument, day);
      if (contract && (day < contract.firstDay || day > contract.expiryDay)) continue;
      const lines = dayLines(plan, slots, contract);
      if (lines.length) yield lines;
    }
  }
  return { forward: () => blocks(false), backward: () => blocks(true) };
}

function resolveFor(ctx: Context, variant: MinuteVariant, symbol: string): Instrument {
  if (variant === 'nearby') {
    // only the root counts, so a bare root will do; anything but futures is an Error line (an assumption)
    const market = futuresRoot(symbol) ?? resolveSymbol(ctx, symbol).market;
    if (market.kind !== 'future') fail(ctx, 'invalidValue', { name: 'symbol', value: symbol });
    return { type: 'nearby', symbol: `${market.code}*1`, market, nth: 1 };
  }
  const instrument = resolveSymbol(ctx, symbol);
  if (variant === 'formT' && instrument.market.kind !== 'equity')
    fail(ctx, 'invalidValue', { name: 'symbol', value: symbol });
  return instrument;
}

/** The response records of a minutes request, in output order. */
export function minuteRecords(ctx: Context, variant: MinuteVariant): Iterable<Block> {
  const symbol = requireParam(ctx, 'symbol');
  const start = dateParam(ctx, 'start');
  const end = dateParam(ctx, 'end');
  const interval = intParam(ctx, 'interval', 1, 100_000) ?? 1;
  const selection = selectionOf(ctx, start !== undefined, end !== undefined);
  const instrument = resolveFor(ctx, variant, symbol);
  const { market } = instrument;
  const now = nowWall(ctx, market.zone);
  // no start: the start of end's day, or as far as data goes when walking back with maxrecords
  const dayStart = (ms: number) => Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
  const fromMs = start ?? (selection.tail ? (DATA_START_DAY - 1) * MS_PER_DAY : dayStart(end ?? now));
  // no end: the end of start's day, but with start + maxrecords the latest data, as the vendor's manual says
  const runsToLatest = start !== undefined && ctx.params.has('maxrecords');
  const toMs = Math.min(end ?? (runsToLatest ? now : dayStart(start ?? now) + MS_PER_DAY), now);
  if (fromMs >= toMs) return [];
  const fromMinute = Math.ceil(fromMs / MS_PER_MINUTE);
  const toMinute = Math.ceil(toMs / MS_PER_MINUTE);
  const contract = instrument.type === 'contract' ? instrument.contract : undefined;
  const formT = parseHoursRange(ctx.options.formTHours) ?? [240, 1200];
  const plan: MinutePlan = {
    instrument,
    market,
    withContract: instrument.type === 'nearby',
    interval,
    fromMinute,
    toMinute,
    firstDay: Math.max(DATA_START_DAY, tradingDayOf(market, fromMinute), contract?.firstDay ?? 0),
    lastDay: Math.min(tradingDayOf(market, toMinute - 1), contract?.expiryDay ?? Number.MAX_SAFE_INTEGER),
    hours: variant === 'formT' ? { formT } : 'minutes',
    trend: trendParam(ctx),
    format: new PriceFormat(market.decimals, market.tickUnits),
    align: ctx.options.barAlign,
    labelEnd: ctx.options.barLabel === 'end',
  };
  return selectRecords(minuteSeries(plan), selection);
}
