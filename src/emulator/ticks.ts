/**
 * `queryticks.ashx` (docs/service.md#ticks): one day per response,
 * `TIME,TRADING_DAY,SESSION_CODE,PRICE,SIZE`. Each minute's ticks come from a generator seeded by symbol and
 * minute, so any window is an exact slice of the day, and a benchmark density of millions of ticks streams in
 * large batches.
 */
import { type Contract, contractFor, DATA_START_DAY, type Instrument, type Market } from './catalogue.js';
import {
  formatMinute,
  MINUTES_PER_DAY,
  MS_PER_DAY,
  MS_PER_MINUTE,
  secondsAndMillis,
  ymdOf,
} from './dates.js';
import { carryFactor, levelAt, PriceFormat } from './prices.js';
import {
  type Context,
  dateParam,
  nowWall,
  requireParam,
  resolveSymbol,
  selectionOf,
  trendParam,
} from './query.js';
import { rngFor } from './random.js';
import { type Block, type Records, type Series, selectRecords } from './records.js';
import { daySlots, type Slot, sessionWindow, tradingDayOf } from './sessions.js';

const DEFAULT_TICKS_PER_DAY: Record<Market['schedule'], number> = {
  equity: 2400,
  future: 3000,
  forex: 1500,
  crypto: 2000,
  index: 800,
};

const DEFAULT_FILTERS: Record<Market['listing'], string> = {
  NYSE: '@EFKX56V9',
  NASDAQ: '@ABDEFKOSXY156',
  OTHER: '!*',
};

/**
 * The `sessionfilter` predicate (docs/service.md#ticks): `EFK` only these, `!EFK` all but, `+T` defaults
 * plus, `-EF` defaults minus; defaults per listing, others all but the settlement `*`.
 */
function sessionFilter(value: string | undefined, market: Market): (code: string) => boolean {
  const parse = (text: string): ((code: string) => boolean) => {
    if (text.startsWith('!')) return (code) => !text.slice(1).includes(code) || code === '';
    return (code) => code !== '' && text.includes(code);
  };
  const defaults = parse(DEFAULT_FILTERS[market.listing]);
  if (value === undefined) return defaults;
  const listed = value.slice(1);
  if (value.startsWith('+')) return (code) => defaults(code) || (code !== '' && listed.includes(code));
  if (value.startsWith('-')) return (code) => defaults(code) && !(code !== '' && listed.includes(code));
  return parse(value);
}

/** What one tick response covers. */
interface TickPlan {
  instrument: Instrument;
  market: Market;
  fromMs: number;
  toMs: number;
  /** Kept session codes, by char code (0 = blank). */
  keep: Uint8Array;
  ticksPerDay: number;
  format: PriceFormat;
}

interface DayPrice {
  contract: Contract | undefined;
  key: string;
  factor: number;
  dayOfMonth: string;
}

function dayPrice(plan: TickPlan, day: number): DayPrice | undefined {
  const contract = contractFor(plan.instrument, day);
  if (contract && (day < contract.firstDay || day > contract.expiryDay)) return undefined;
  return {
    contract,
    key: contract?.code ?? plan.market.code,
    factor: contract ? carryFactor(contract, day) : 1,
    dayOfMonth: String(ymdOf(day).day),
  };
}

const CHAR = (text: string): number => text.charCodeAt(0);
const [AT, F, I, E, T, O, FIVE, SIX, G, STAR] = ['@', 'F', 'I', 'E', 'T', 'O', '5', '6', 'G', '*'].map(
  CHAR,
) as number[];

function equityCode(market: Market, minuteOfDay: number, first: boolean, draw: number): number {
  if (minuteOfDay < 570 || minuteOfDay >= 960)
    return minuteOfDay === 960 && first ? (SIX as number) : (T as number);
  if (minuteOfDay === 570 && first) return (market.listing === 'NASDAQ' ? O : FIVE) as number;
  return (draw < 0.82 ? AT : draw < 0.92 ? F : draw < 0.97 ? I : E) as number;
}

/** The ticks of one minute as columns (no strings: 12M ticks must not churn the garbage collector). */
class MinuteTicks {
  count = 0;
  prefix = '';
  dayOfMonth = '';
  offset = new Int32Array(1024);
  units = new Float64Array(1024);
  size = new Int32Array(1024);
  code = new Uint8Array(1024);

  reserve(count: number): void {
    if (count <= this.offset.length) return;
    const length = Math.max(count, this.offset.length * 2);
    this.offset = new Int32Array(length);
    this.units = new Float64Array(length);
    this.size = new Int32Array(length);
    this.code = new Uint8Array(length);
  }
}

/** Fills `out` with the ticks of one trading minute that fall in the window and pass the filter. */
function generateMinute(plan: TickPlan, slot: Slot, price: DayPrice, out: MinuteTicks): void {
  const { market, format, keep } = plan;
  out.count = 0;
  const rng = rngFor(price.key, slot.minute, slot.repeat ? 'r' : '');
  const expected = (plan.ticksPerDay * slot.weight) / slot.dayWeight;
  const minuteOfDay = slot.minute - Math.floor(slot.minute / MINUTES_PER_DAY) * MINUTES_PER_DAY;
  const settles = market.futures?.settleMinute === minuteOfDay;
  const count = Math.floor(expected * (0.4 + 1.2 * rng.next()) + rng.next()) + (settles ? 1 : 0);
  if (count === 0) return;
  out.reserve(count);
  const open = format.units(levelAt(market, slot.minute) * price.factor);
  const close = format.units(levelAt(market, slot.minute + 1) * price.factor);
  out.prefix = `${formatMinute(slot.minute)}:`;
  out.dayOfMonth = price.dayOfMonth;
  const minuteMs = slot.minute * MS_PER_MINUTE;
  // mean step 60 s / (count + 1); a quarter of the ticks share their predecessor's timestamp, as real ones do
  const gap = 60_000 / (count + 1) / 0.75;
  const tick = format.tickUnits;
  const isEquity = market.kind === 'equity';
  const isFuture = market.kind === 'future';
  const noSize = market.kind === 'index';
  let offset = Math.floor(rng.next() * gap);
  let kept = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0 && rng.next() >= 0.25) offset += Math.floor(rng.next() * 2 * gap);
    if (offset > 59_999) offset = 59_999;
    const draw = rng.next();
    let code: number;
    let size: number;
    if (settles && i === 0) {
      code = STAR as number;
      size = 0;
    } else if (isEquity) {
      code = equityCode(market, minuteOfDay, i === 0, draw);
      size = code === I ? 1 + Math.floor(rng.next() * 99) : 100 * (1 + Math.floor(rng.next() * 10));
    } else if (isFuture) {
      code = G as number;
      const r = rng.next();
      size = 1 + Math.floor(r * r * r * 40);
    } else {
      code = 0;
      size = noSize ? -1 : 1 + Math.floor(rng.next() * 50);
    }
    const ms = minuteMs + offset;
    if (ms < plan.fromMs || ms >= plan.toMs || keep[code] !== 1) continue;
    const jitter = draw < 0.15 ? -tick : draw > 0.85 ? tick : 0;
    out.offset[kept] = offset;
    out.units[kept] = open + Math.round(((close - open) * i) / count / tick) * tick + jitter;
    out.size[kept] = size;
    out.code[kept] = code;
    kept++;
  }
  out.count = kept;
}

/** The ticks of a minute as lines (for the maxrecords/order path). */
function tickLines(ticks: MinuteTicks, format: PriceFormat): Block {
  const table = secondsAndMillis();
  const middle = `,${ticks.dayOfMonth},`;
  const lines: Block = new Array(ticks.count);
  for (let i = 0; i < ticks.count; i++) {
    const code = ticks.code[i] ? String.fromCharCode(ticks.code[i] as number) : '';
    const size = (ticks.size[i] as number) < 0 ? '' : String(ticks.size[i]);
    lines[i] =
      `${ticks.prefix}${table[ticks.offset[i] as number]}${middle}${code},${format.text(ticks.units[i] as number)},${size}`;
  }
  return lines;
}

/**
 * How many of a minute's ticks a limit keeps when the last second is completed
 * (docs/service.md#maxrecords-and-order): a second never spans two minutes, so the rest of it is in this
 * minute, offsets being non-decreasing.
 */
function secondEnd(ticks: MinuteTicks, limit: number): number {
  let count = Math.min(ticks.count, limit);
  if (count === 0 || count === ticks.count) return count;
  const second = Math.floor((ticks.offset[count - 1] as number) / 1000);
  while (count < ticks.count && Math.floor((ticks.offset[count] as number) / 1000) === second) count++;
  return count;
}

/** The `YYYY-MM-DD HH:MM:SS` of a tick line: the group a cut completes with tickLimit=second. */
const secondOf = (line: string): string => line.slice(0, 19);

let secondsBytes: Buffer | undefined;

/** `SS.fff` of each millisecond of a minute, 6 bytes each. */
function secondsTable(): Buffer {
  if (!secondsBytes) secondsBytes = Buffer.from(secondsAndMillis().join(''), 'latin1');
  return secondsBytes;
}

const OUT_BYTES = 256 * 1024;

/** Writes tick lines straight into large buffers: the fast path for a plain ascending response. */
class TickWriter {
  private buffer = Buffer.allocUnsafe(OUT_BYTES);
  private position = 0;
  private first = true;
  private readonly prices = new Map<number, Buffer>();
  private readonly eol: Buffer;
  private readonly seconds = secondsTable();

  constructor(
    private readonly format: PriceFormat,
    eol: string,
  ) {
    this.eol = Buffer.from(eol, 'latin1');
  }

  private copy(bytes: Uint8Array): void {
    const { buffer } = this;
    let position = this.position;
    for (let i = 0; i < bytes.length; i++) buffer[position++] = bytes[i] as number;
    this.position = position;
  }

  private digits(value: number): void {
    const { buffer } = this;
    if (value < 10) {
      buffer[this.position++] = 48 + value;
      return;
    }
    const text = String(value);
    for (let i = 0; i < text.length; i++) buffer[this.position++] = text.charCodeAt(i);
  }

  private price(units: number): Buffer {
    let bytes = this.prices.get(units);
    if (!bytes) {
      bytes = Buffer.from(this.format.text(units), 'latin1');
      if (this.prices.size < 100_000) this.prices.set(units, bytes);
    }
    return bytes;
  }

  /**
   * Appends up to `limit` of a minute's ticks (past it, to the end of the last tick's second, when
   * `completeSecond`), pushing filled buffers onto `full`; returns the count.
   */
  write(ticks: MinuteTicks, limit: number, full: Buffer[], completeSecond: boolean): number {
    const prefix = Buffer.from(ticks.prefix, 'latin1');
    const middle = Buffer.from(`,${ticks.dayOfMonth},`, 'latin1');
    const count = completeSecond ? secondEnd(ticks, limit) : Math.min(ticks.count, limit);
    for (let i = 0; i < count; i++) {
      if (this.position > OUT_BYTES - 256) {
        full.push(this.buffer.subarray(0, this.position));
        this.buffer = Buffer.allocUnsafe(OUT_BYTES);
        this.position = 0;
      }
      if (this.first) this.first = false;
      else this.copy(this.eol);
      this.copy(prefix);
      const at = (ticks.offset[i] as number) * 6;
      const { buffer, seconds } = this;
      for (let k = 0; k < 6; k++) buffer[this.position++] = seconds[at + k] as number;
      this.copy(middle);
      const code = ticks.code[i] as number;
      if (code) this.buffer[this.position++] = code;
      this.buffer[this.position++] = 44;
      this.copy(this.price(ticks.units[i] as number));
      this.buffer[this.position++] = 44;
      const size = ticks.size[i] as number;
      if (size >= 0) this.digits(size);
    }
    return count;
  }

  /** The rest, with the final line end when asked. */
  finish(finalNewline: boolean): Buffer | undefined {
    if (!this.first && finalNewline) this.copy(this.eol);
    return this.position ? this.buffer.subarray(0, this.position) : undefined;
  }
}

/** Support and resistance every 30 minutes (`trend=y`): the range of the two hours before. */
function trendLine(plan: TickPlan, slot: Slot, price: DayPrice): string {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let back = 0; back <= 120; back += 10) {
    const level = levelAt(plan.market, slot.minute - back) * price.factor;
    low = Math.min(low, level);
    high = Math.max(high, level);
  }
  const code = plan.market.kind === 'future' ? 'G' : plan.market.kind === 'equity' ? '@' : '';
  const { format } = plan;
  const support = format.text(format.units(low) - format.tickUnits * 2);
  const resistance = format.text(format.units(high) + format.tickUnits * 2);
  return `${formatMinute(slot.minute)}:00.000,${price.dayOfMonth},${code},${support},${resistance}`;
}

function tickSeries(
  plan: TickPlan,
  trend: boolean,
): Series & {
  fastChunks(eol: string, finalNewline: boolean, limit: number, completeSecond: boolean): Generator<Buffer>;
} {
  const fromMinute = Math.floor(plan.fromMs / MS_PER_MINUTE);
  const toMinute = Math.ceil(plan.toMs / MS_PER_MINUTE);
  const firstDay = Math.max(DATA_START_DAY, tradingDayOf(plan.market, fromMinute));
  const lastDay = tradingDayOf(plan.market, toMinute - 1);
  const days = (backward: boolean) =>
    daySlots(plan.market, firstDay, lastDay, 'ticks', fromMinute, toMinute, backward);
  function* blocks(backward: boolean): Generator<Block> {
    const ticks = new MinuteTicks();
    for (const slots of days(backward)) {
      const first = slots[0];
      const price = first && dayPrice(plan, first.day);
      if (!price) continue;
      const ordered = backward ? slots.reverse() : slots;
      for (const slot of ordered) {
        if (trend) {
          if (slot.minute % 30 === 0 && slot.minute * MS_PER_MINUTE >= plan.fromMs)
            yield [trendLine(plan, slot, price)];
          continue;
        }
        generateMinute(plan, slot, price, ticks);
        if (ticks.count) yield tickLines(ticks, plan.format);
      }
    }
  }
  function* fastChunks(
    eol: string,
    finalNewline: boolean,
    limit: number,
    completeSecond: boolean,
  ): Generator<Buffer> {
    const ticks = new MinuteTicks();
    const writer = new TickWriter(plan.format, eol);
    const full: Buffer[] = [];
    let left = limit;
    for (const slots of days(false)) {
      const first = slots[0];
      const price = first && dayPrice(plan, first.day);
      if (!price) continue;
      for (const slot of slots) {
        generateMinute(plan, slot, price, ticks);
        left -= writer.write(ticks, left, full, completeSecond);
        if (full.length) yield* full.splice(0);
        if (left <= 0) break;
      }
      if (left <= 0) break;
    }
    const rest = writer.finish(finalNewline);
    if (rest) yield rest;
  }
  return { forward: () => blocks(false), backward: () => blocks(true), fastChunks };
}

/**
 * The window of a tick request (docs/service.md#ticks): the day of `start` (of `end` without `start`, of
 * today without either), cut at the next midnight (or session end with `tickDay=session`) and at "now".
 */
function tickWindow(
  ctx: Context,
  market: Market,
  start: number | undefined,
  end: number | undefined,
): [number, number] {
  const now = nowWall(ctx, market.zone);
  const anchor = start ?? end ?? now;
  let dayFrom: number;
  let dayTo: number;
  if (ctx.options.tickDay === 'session') {
    const day = tradingDayOf(market, Math.floor(anchor / MS_PER_MINUTE));
    const [open, closeMinute] = sessionWindow(market, day);
    dayFrom = open * MS_PER_MINUTE;
    dayTo = closeMinute * MS_PER_MINUTE;
  } else {
    dayFrom = Math.floor(anchor / MS_PER_DAY) * MS_PER_DAY;
    dayTo = dayFrom + MS_PER_DAY;
  }
  const from = start ?? dayFrom;
  const to = Math.min(end ?? dayTo, dayTo, now);
  return [from, to];
}

/** The response records of a tick request, in output order (as bytes when no cut or reversal is asked). */
export function tickRecords(ctx: Context): Records {
  const symbol = requireParam(ctx, 'symbol');
  const start = dateParam(ctx, 'start');
  const end = dateParam(ctx, 'end');
  const completeSecond = ctx.options.tickLimit === 'second';
  const selection = {
    ...selectionOf(ctx, start !== undefined, end !== undefined),
    ...(completeSecond ? { groupOf: secondOf } : {}),
  };
  const instrument = resolveSymbol(ctx, symbol);
  const market = instrument.market;
  const [fromMs, toMs] = tickWindow(ctx, market, start, end);
  if (fromMs >= toMs) return [];
  const filter = sessionFilter(ctx.params.get('sessionfilter'), market);
  const keep = new Uint8Array(128);
  keep[0] = filter('') ? 1 : 0;
  for (let code = 32; code < 127; code++) keep[code] = filter(String.fromCharCode(code)) ? 1 : 0;
  const plan: TickPlan = {
    instrument,
    market,
    fromMs,
    toMs,
    keep,
    ticksPerDay: ctx.options.ticksPerDay ?? DEFAULT_TICKS_PER_DAY[market.schedule],
    format: new PriceFormat(market.decimals, market.tickUnits),
  };
  const trend = trendParam(ctx);
  const series = tickSeries(plan, trend);
  if (!trend && !selection.descending && !selection.tail) {
    const limit = selection.maxRecords ?? Number.POSITIVE_INFINITY;
    return { bytes: (eol, finalNewline) => series.fastChunks(eol, finalNewline, limit, completeSecond) };
  }
  return selectRecords(series, selection);
}
