/**
 * The emulator's symbol catalogue: which symbols exist, their kind, zone, exchange, price scale and,
 * for futures, contract months and expiry rules. Everything else is unknown (tests use `NOPE`).
 */
import { dayOf, isWeekend, nthWeekday, weekdayOf, ymdOf, type Zone } from './dates.js';

/** The kinds of symbol the zone rule tells apart: equities speak Eastern time, everything else Central. */
export type Kind = 'equity' | 'future' | 'forex' | 'index';

/** Trading hours pattern of a market (see sessions.ts). */
export type Schedule = 'equity' | 'future' | 'forex' | 'crypto' | 'index';

/** How the expiry day of a futures contract is found from its month. */
type ExpiryRule =
  | 'thirdFriday'
  | 'beforeThirdWednesday'
  | 'previousMonth20'
  | 'before15th'
  | 'thirdLastBusiness';

/** A tradable product: an equity, a futures root, a currency pair or an index. */
export interface Market {
  code: string;
  kind: Kind;
  zone: Zone;
  schedule: Schedule;
  exchange: string;
  /** Which default sale-condition filter applies to ticks (docs/service.md#ticks). */
  listing: 'NYSE' | 'NASDAQ' | 'OTHER';
  description: string;
  basePrice: number;
  /** Prices are integers of 10^-decimals; a tick is `tickUnits` of them. */
  decimals: number;
  tickUnits: number;
  /** Relative size of the price swings. */
  volatility: number;
  dailyVolume: number;
  entitled: boolean;
  futures?: FuturesSpec;
  events?: EventSpec;
}

/** Contract months and expiry of a futures root, and its options chain. */
export interface FuturesSpec {
  months: string;
  expiry: ExpiryRule;
  /** Yearly carry, so deferred contracts price differently from the front. */
  carry: number;
  /** Minute of day (Central) of the settlement print `*`. */
  settleMinute: number;
  strikeStep: number;
  optionDecimals: number;
  optionTickUnits: number;
  /** Option expiry: the futures expiry, the Friday before it, or the third Friday of the month before. */
  optionExpiry: 'same' | 'fridayBefore' | 'businessDayBefore' | 'previousMonthThirdFriday';
}

/** Corporate events of an equity (docs/service.md#events). */
export interface EventSpec {
  splits: { day: number; from: number; to: number }[];
  dividendMonths: number[];
  dividendBase: number;
  earningsMonths: number[];
  earningsBase: number;
}

/** First day of data of the catalogue: "all data" stays bounded. */
export const DATA_START_DAY = dayOf(2020, 1, 2);

/** Futures month codes, January to December. */
export const MONTH_CODES = 'FGHJKMNQUVXZ';

const QUARTERLY = 'HMUZ';
const EQUITY_EVENTS = (dividendMonths: number[], dividendBase: number, earningsBase: number): EventSpec => ({
  splits: [],
  dividendMonths,
  dividendBase,
  earningsMonths: earningsBase ? [1, 4, 7, 10] : [],
  earningsBase,
});

const equity = (
  code: string,
  listing: 'NYSE' | 'NASDAQ',
  exchange: string,
  description: string,
  basePrice: number,
  events: EventSpec,
): Market => ({
  code,
  kind: 'equity',
  zone: 'America/New_York',
  schedule: 'equity',
  exchange,
  listing,
  description,
  basePrice,
  decimals: 2,
  tickUnits: 1,
  volatility: 1,
  dailyVolume: 40_000_000,
  entitled: true,
  events,
});

const future = (
  code: string,
  exchange: string,
  description: string,
  basePrice: number,
  decimals: number,
  tickUnits: number,
  futures: FuturesSpec,
): Market => ({
  code,
  kind: 'future',
  zone: 'America/Chicago',
  schedule: 'future',
  exchange,
  listing: 'OTHER',
  description,
  basePrice,
  decimals,
  tickUnits,
  volatility: 1,
  dailyVolume: 900_000,
  entitled: true,
  futures,
});

const MARKETS: Market[] = [
  equity('AAPL', 'NASDAQ', 'NASDAQ', 'Apple Inc', 180, {
    ...EQUITY_EVENTS([2, 5, 8, 11], 0.2, 1.4),
    splits: [{ day: dayOf(2020, 8, 31), from: 4, to: 1 }],
  }),
  equity('MSFT', 'NASDAQ', 'NASDAQ', 'Microsoft Corp', 400, EQUITY_EVENTS([2, 5, 8, 11], 0.51, 2.3)),
  equity(
    'IBM',
    'NYSE',
    'NYSE',
    'International Business Machines',
    170,
    EQUITY_EVENTS([2, 5, 8, 11], 1.62, 2.1),
  ),
  equity('SPY', 'NYSE', 'NYSE', 'SPDR S&P 500 ETF Trust', 520, EQUITY_EVENTS([3, 6, 9, 12], 1.5, 0)),
  equity('QQQ', 'NASDAQ', 'NASDAQ', 'Invesco QQQ Trust', 440, EQUITY_EVENTS([3, 6, 9, 12], 0.5, 0)),
  equity('TSLA', 'NASDAQ', 'NASDAQ', 'Tesla Inc', 220, {
    ...EQUITY_EVENTS([], 0, 0.7),
    splits: [
      { day: dayOf(2020, 8, 31), from: 5, to: 1 },
      { day: dayOf(2022, 8, 25), from: 3, to: 1 },
    ],
  }),
  equity('BRK.B', 'NYSE', 'NYSE', 'Berkshire Hathaway Inc Class B', 410, EQUITY_EVENTS([], 0, 4.1)),
  future('ES', 'CME', 'E-Mini S&P 500', 5600, 2, 25, {
    months: QUARTERLY,
    expiry: 'thirdFriday',
    carry: 0.03,
    settleMinute: 15 * 60,
    strikeStep: 25,
    optionDecimals: 2,
    optionTickUnits: 5,
    optionExpiry: 'same',
  }),
  future('NQ', 'CME', 'E-Mini Nasdaq-100', 19500, 2, 25, {
    months: QUARTERLY,
    expiry: 'thirdFriday',
    carry: 0.03,
    settleMinute: 15 * 60,
    strikeStep: 100,
    optionDecimals: 2,
    optionTickUnits: 5,
    optionExpiry: 'same',
  }),
  future('6E', 'CME', 'Euro FX', 1.08, 5, 5, {
    months: QUARTERLY,
    expiry: 'beforeThirdWednesday',
    carry: 0.01,
    settleMinute: 14 * 60,
    strikeStep: 0.005,
    optionDecimals: 5,
    optionTickUnits: 5,
    optionExpiry: 'fridayBefore',
  }),
  future('CL', 'NYMEX', 'Crude Oil', 72, 2, 1, {
    months: MONTH_CODES,
    expiry: 'previousMonth20',
    carry: -0.05,
    settleMinute: 13 * 60 + 30,
    strikeStep: 0.5,
    optionDecimals: 2,
    optionTickUnits: 1,
    optionExpiry: 'businessDayBefore',
  }),
  future('ZC', 'CBOT', 'Corn', 450, 2, 25, {
    months: 'HKNUZ',
    expiry: 'before15th',
    carry: 0.04,
    settleMinute: 13 * 60 + 15,
    strikeStep: 10,
    optionDecimals: 3,
    optionTickUnits: 125,
    optionExpiry: 'previousMonthThirdFriday',
  }),
  future('GC', 'COMEX', 'Gold', 2300, 1, 1, {
    months: 'GJMQVZ',
    expiry: 'thirdLastBusiness',
    carry: 0.04,
    settleMinute: 12 * 60 + 30,
    strikeStep: 10,
    optionDecimals: 1,
    optionTickUnits: 1,
    optionExpiry: 'previousMonthThirdFriday',
  }),
  {
    code: '^EURUSD',
    kind: 'forex',
    zone: 'America/Chicago',
    schedule: 'forex',
    exchange: 'FOREX',
    listing: 'OTHER',
    description: 'Euro / US Dollar',
    basePrice: 1.09,
    decimals: 5,
    tickUnits: 1,
    volatility: 0.3,
    dailyVolume: 300_000,
    entitled: true,
  },
  {
    code: '^USDJPY',
    kind: 'forex',
    zone: 'America/Chicago',
    schedule: 'forex',
    exchange: 'FOREX',
    listing: 'OTHER',
    description: 'US Dollar / Japanese Yen',
    basePrice: 150,
    decimals: 3,
    tickUnits: 1,
    volatility: 0.3,
    dailyVolume: 250_000,
    entitled: true,
  },
  {
    // trades around the clock, so the autumn DST hour repeats in its timestamps
    // (docs/time-zones.md#daylight-saving)
    code: '^BTCUSD',
    kind: 'forex',
    zone: 'America/Chicago',
    schedule: 'crypto',
    exchange: 'FOREX',
    listing: 'OTHER',
    description: 'Bitcoin / US Dollar',
    basePrice: 60000,
    decimals: 2,
    tickUnits: 1,
    volatility: 2,
    dailyVolume: 50_000,
    entitled: true,
  },
  {
    code: '$SPX',
    kind: 'index',
    zone: 'America/Chicago',
    schedule: 'index',
    exchange: 'CBOE',
    listing: 'OTHER',
    description: 'S&P 500 Index',
    basePrice: 5600,
    decimals: 2,
    tickUnits: 1,
    volatility: 0.9,
    dailyVolume: 0,
    entitled: true,
  },
  {
    code: '$VIX',
    kind: 'index',
    zone: 'America/Chicago',
    schedule: 'index',
    exchange: 'CBOE',
    listing: 'OTHER',
    description: 'Cboe Volatility Index',
    basePrice: 16,
    decimals: 2,
    tickUnits: 1,
    volatility: 3,
    dailyVolume: 0,
    entitled: false,
  },
];

const BY_CODE = new Map(MARKETS.map((market) => [market.code, market]));

/** The market of an exact code (`AAPL`, `ES`, `^EURUSD`), or undefined. */
export function marketByCode(code: string): Market | undefined {
  return BY_CODE.get(code.toUpperCase());
}

/** A futures contract: root, month and the days it trades. */
export interface Contract {
  root: Market;
  spec: FuturesSpec;
  year: number;
  month: number;
  /** `ESM25`: the two-digit form used in contract columns. */
  code: string;
  expiryDay: number;
  firstDay: number;
}

/** What a request symbol names. */
export type Instrument =
  | { type: 'plain'; symbol: string; market: Market }
  | { type: 'contract'; symbol: string; market: Market; contract: Contract }
  | { type: 'nearby'; symbol: string; market: Market; nth: number };

/** The result of looking a symbol up: found, unknown, or known but not entitled. */
export type Lookup = { status: 'ok'; instrument: Instrument } | { status: 'unknown' | 'unentitled' };

const CONTRACT_LIFE_DAYS = 420;

function businessDayOnOrBefore(day: number): number {
  let result = day;
  while (isWeekend(result)) result--;
  return result;
}

function expiryDay(spec: FuturesSpec, year: number, month: number): number {
  switch (spec.expiry) {
    case 'thirdFriday':
      return nthWeekday(year, month, 5, 3);
    case 'beforeThirdWednesday':
      return nthWeekday(year, month, 3, 3) - 2;
    case 'previousMonth20':
      return businessDayOnOrBefore(dayOf(year, month - 1, 20));
    case 'before15th':
      return businessDayOnOrBefore(dayOf(year, month, 14));
    case 'thirdLastBusiness': {
      let day = dayOf(year, month + 1, 1);
      for (let count = 0; count < 3; ) {
        day--;
        if (!isWeekend(day)) count++;
      }
      return day;
    }
  }
}

/** The contract of a root for a month, or undefined when the root does not list that month. */
export function contractOf(root: Market, year: number, month: number): Contract | undefined {
  const spec = root.futures;
  if (!spec?.months.includes(MONTH_CODES[month - 1] ?? '?')) return undefined;
  const expiry = expiryDay(spec, year, month);
  return {
    root,
    spec,
    year,
    month,
    code: `${root.code}${MONTH_CODES[month - 1]}${String(year % 100).padStart(2, '0')}`,
    expiryDay: expiry,
    firstDay: Math.max(DATA_START_DAY, expiry - CONTRACT_LIFE_DAYS),
  };
}

/**
 * The n-th (1-based) contract in force on `day`: a contract is in force from the expiry day of the previous
 * one (inclusive) to the day before its own expiry (docs/service.md#nearby-minute-bars), shifted earlier by
 * `rollDaysBefore` calendar days for EOD's `daystoexpiration`.
 */
export function nthContract(root: Market, day: number, nth: number, rollDaysBefore = 0): Contract {
  const { year, month } = ymdOf(day);
  let found = 0;
  for (let offset = 0; ; offset++) {
    const absolute = year * 12 + (month - 1) + offset;
    const contract = contractOf(root, Math.floor(absolute / 12), (absolute % 12) + 1);
    if (contract && contract.expiryDay - rollDaysBefore > day) {
      found++;
      if (found === nth) return contract;
    }
  }
}

/** Option expiry day of a contract's options. */
export function optionExpiryDay(contract: Contract): number {
  switch (contract.spec.optionExpiry) {
    case 'same':
      return contract.expiryDay;
    case 'fridayBefore':
      return contract.expiryDay - ((weekdayOf(contract.expiryDay) - 5 + 7) % 7 || 7);
    case 'businessDayBefore': {
      let day = contract.expiryDay - 1;
      while (isWeekend(day)) day--;
      return day;
    }
    case 'previousMonthThirdFriday':
      return nthWeekday(
        contract.month === 1 ? contract.year - 1 : contract.year,
        ((contract.month + 10) % 12) + 1,
        5,
        3,
      );
  }
}

const LAST_CONTRACT_YEAR = 2031;

function lookupFuture(text: string): Lookup | undefined {
  const nearby = /^(.+)\*(\d+)$/.exec(text);
  if (nearby) {
    const root = marketByCode(nearby[1] ?? '');
    const nth = Number(nearby[2]);
    if (!root?.futures || nth < 1 || nth > 12) return { status: 'unknown' };
    return { status: 'ok', instrument: { type: 'nearby', symbol: `${root.code}*${nth}`, market: root, nth } };
  }
  for (const root of MARKETS) {
    if (!root.futures || !text.startsWith(root.code)) continue;
    const match = /^([FGHJKMNQUVXZ])(\d{1,2})$/.exec(text.slice(root.code.length));
    if (!match) continue;
    const digits = match[2] ?? '';
    // a one-digit year means this decade, as exchanges write it (ESM5 = ESM25)
    const year = digits.length === 1 ? 2020 + Number(digits) : 2000 + Number(digits);
    const contract = contractOf(root, year, MONTH_CODES.indexOf(match[1] ?? '') + 1);
    if (!contract || contract.expiryDay < DATA_START_DAY || year > LAST_CONTRACT_YEAR)
      return { status: 'unknown' };
    return { status: 'ok', instrument: { type: 'contract', symbol: text, market: root, contract } };
  }
  return undefined;
}

/**
 * Looks a request symbol up: equities, forex (`^EURUSD`), indices (`$SPX`), futures contracts with a
 * one- or two-digit year (`ESM25`, `ESM5`) and the nearby shortcut `ROOT*n`. A bare futures root is
 * not a symbol (futures options take it as `root`). Case-insensitive.
 */
export function lookupSymbol(symbol: string): Lookup {
  const text = symbol.trim().toUpperCase();
  const market = BY_CODE.get(text);
  if (market && !market.futures) {
    if (!market.entitled) return { status: 'unentitled' };
    return { status: 'ok', instrument: { type: 'plain', symbol: market.code, market } };
  }
  return lookupFuture(text) ?? { status: 'unknown' };
}

/** The futures root named by `code` (`ES`), or undefined. */
export function futuresRoot(code: string): Market | undefined {
  const market = marketByCode(code.trim());
  return market?.futures ? market : undefined;
}

/** The contract in force for an instrument on a trading day (plain markets have none). */
export function contractFor(instrument: Instrument, day: number): Contract | undefined {
  if (instrument.type === 'contract') return instrument.contract;
  if (instrument.type === 'nearby') return nthContract(instrument.market, day, instrument.nth);
  return undefined;
}
