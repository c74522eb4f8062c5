import { divideDecimal } from './decimal.js';
import { calendarDate, epochMsToIsoDate, epochNsToIso } from './epoch.js';
import type { InstrumentEntry } from './instrument-stream.js';
import {
  isJsonNumber,
  isJsonObject,
  type JsonNumber,
  type JsonObject,
  type JsonValue,
  numberText,
  setJsonKey,
  stringifyLossless,
} from './lossless-json.js';

/** One row of the `instruments` table: one instrument definition (wire-formats §3.2). */
export interface InstrumentRow {
  marketId: string;
  symbol: string | null;
  exchangeCode: string | null;
  instrumentType: string | null;
  description: string | null;
  currencyCode: string | null;
  cfiCode: string | null;
  isin: string | null;
  vendorId: string | null;
  vendorExchange: string | null;
  vendorExchangeCode: string | null;
  vendorBaseCode: string | null;
  exchangeId: JsonNumber | null;
  instrumentGroup: string | null;
  state: string | null;
  tickSize: JsonNumber | null;
  pointValue: JsonNumber | null;
  priceDenominator: JsonNumber | null;
  quantityDenominator: JsonNumber | null;
  timeZone: string | null;
  firstTradeDate: string | null;
  lastTradeDate: string | null;
  expiration: string | null;
  maturity: string | null;
  underlying: string | null;
  underlyingMarketId: string | null;
  optionStrike: string | null;
  optionType: string | null;
  optionStyle: string | null;
  spreadCode: string | null;
  contractSize: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  /** Every field of the entry not rendered by a column above or by the other tables, as lossless JSON. */
  extra: string | null;
}

/** One row of the `symbols` table: an alternative symbol of an instrument. */
export interface SymbolRow {
  marketId: string;
  vendor: string;
  symbol: string;
  longSymbol: string | null;
}

/** One row of the `spread_legs` table: a leg of a spread, in the order of the entry. */
export interface SpreadLegRow {
  marketId: string;
  legIndex: number;
  legMarketId: string | null;
  ratio: JsonNumber | null;
  symbol: string | null;
}

/** The rows one instrument entry contributes to the three profile tables. */
export interface ProfileRows {
  instrument: InstrumentRow;
  symbols: SymbolRow[];
  spreadLegs: SpreadLegRow[];
}

/** How a column is typed in SQLite and rendered in JSON: `json` holds JSON text, written unquoted. */
export type ColumnKind = 'text' | 'integer' | 'real' | 'json';

/** A column of a profile table: its snake_case name (CSV header, SQLite, JSON keys) and the row field. */
export interface Column<Row> {
  name: string;
  key: keyof Row & string;
  kind: ColumnKind;
}

/** Columns of `instruments`, in order; `market_id` is the primary key. */
export const instrumentColumns: readonly Column<InstrumentRow>[] = [
  { name: 'market_id', key: 'marketId', kind: 'text' },
  { name: 'symbol', key: 'symbol', kind: 'text' },
  { name: 'exchange_code', key: 'exchangeCode', kind: 'text' },
  { name: 'instrument_type', key: 'instrumentType', kind: 'text' },
  { name: 'description', key: 'description', kind: 'text' },
  { name: 'currency_code', key: 'currencyCode', kind: 'text' },
  { name: 'cfi_code', key: 'cfiCode', kind: 'text' },
  { name: 'isin', key: 'isin', kind: 'text' },
  { name: 'vendor_id', key: 'vendorId', kind: 'text' },
  { name: 'vendor_exchange', key: 'vendorExchange', kind: 'text' },
  { name: 'vendor_exchange_code', key: 'vendorExchangeCode', kind: 'text' },
  { name: 'vendor_base_code', key: 'vendorBaseCode', kind: 'text' },
  { name: 'exchange_id', key: 'exchangeId', kind: 'integer' },
  { name: 'instrument_group', key: 'instrumentGroup', kind: 'text' },
  { name: 'state', key: 'state', kind: 'text' },
  { name: 'tick_size', key: 'tickSize', kind: 'real' },
  { name: 'point_value', key: 'pointValue', kind: 'real' },
  { name: 'price_denominator', key: 'priceDenominator', kind: 'integer' },
  { name: 'quantity_denominator', key: 'quantityDenominator', kind: 'integer' },
  { name: 'time_zone', key: 'timeZone', kind: 'text' },
  { name: 'first_trade_date', key: 'firstTradeDate', kind: 'text' },
  { name: 'last_trade_date', key: 'lastTradeDate', kind: 'text' },
  { name: 'expiration', key: 'expiration', kind: 'text' },
  { name: 'maturity', key: 'maturity', kind: 'text' },
  { name: 'underlying', key: 'underlying', kind: 'text' },
  { name: 'underlying_market_id', key: 'underlyingMarketId', kind: 'text' },
  // Text, not REAL: the strike is an exact decimal (wire-formats §3.2) that a double could round.
  { name: 'option_strike', key: 'optionStrike', kind: 'text' },
  { name: 'option_type', key: 'optionType', kind: 'text' },
  { name: 'option_style', key: 'optionStyle', kind: 'text' },
  { name: 'spread_code', key: 'spreadCode', kind: 'text' },
  { name: 'contract_size', key: 'contractSize', kind: 'text' },
  { name: 'created_at', key: 'createdAt', kind: 'text' },
  { name: 'updated_at', key: 'updatedAt', kind: 'text' },
  { name: 'extra', key: 'extra', kind: 'json' },
];

/** Columns of `symbols`; the primary key is (market_id, vendor, symbol). */
export const symbolColumns: readonly Column<SymbolRow>[] = [
  { name: 'market_id', key: 'marketId', kind: 'text' },
  { name: 'vendor', key: 'vendor', kind: 'text' },
  { name: 'symbol', key: 'symbol', kind: 'text' },
  { name: 'long_symbol', key: 'longSymbol', kind: 'text' },
];

/** Columns of `spread_legs`; the primary key is (market_id, leg_index). */
export const spreadLegColumns: readonly Column<SpreadLegRow>[] = [
  { name: 'market_id', key: 'marketId', kind: 'text' },
  { name: 'leg_index', key: 'legIndex', kind: 'integer' },
  { name: 'leg_market_id', key: 'legMarketId', kind: 'text' },
  { name: 'ratio', key: 'ratio', kind: 'integer' },
  { name: 'symbol', key: 'symbol', kind: 'text' },
];

/** The name of a profile table. */
export type ProfileTable = 'instruments' | 'symbols' | 'spread_legs';

type TextKey = {
  [K in keyof InstrumentRow]: InstrumentRow[K] extends string | null ? K : never;
}[keyof InstrumentRow];
type NumberKey = {
  [K in keyof InstrumentRow]: InstrumentRow[K] extends JsonNumber | null ? K : never;
}[keyof InstrumentRow];

// Fields copied to a column unchanged. Enums are text: an unknown value may come as a number (§3.1).
const TEXT_FIELDS = new Map<string, TextKey>([
  ['symbol', 'symbol'],
  ['exchangeCode', 'exchangeCode'],
  ['instrumentType', 'instrumentType'],
  ['description', 'description'],
  ['currencyCode', 'currencyCode'],
  ['cfiCode', 'cfiCode'],
  ['isin', 'isin'],
  ['vendorId', 'vendorId'],
  ['vendorExchange', 'vendorExchange'],
  ['vendorExchangeCode', 'vendorExchangeCode'],
  ['vendorBaseCode', 'vendorBaseCode'],
  ['instrumentGroup', 'instrumentGroup'],
  ['state', 'state'],
  ['timeZoneName', 'timeZone'],
  ['underlying', 'underlying'],
  ['underlyingMarketId', 'underlyingMarketId'],
  ['optionType', 'optionType'],
  ['optionStyle', 'optionStyle'],
  ['spreadCode', 'spreadCode'],
  ['contractSize', 'contractSize'],
]);

const NUMBER_FIELDS = new Map<string, NumberKey>([
  ['exchangeId', 'exchangeId'],
  ['minimumPriceIncrement', 'tickSize'],
  ['contractPointValue', 'pointValue'],
  ['priceDenominator', 'priceDenominator'],
  ['quantityDenominator', 'quantityDenominator'],
]);

type ColumnRule = { kind: 'text'; column: TextKey } | { kind: 'number'; column: NumberKey };
// One lookup a key instead of one a table (issue 9: every entry has some forty keys).
const COLUMN_RULES = new Map<string, ColumnRule>([
  ...[...TEXT_FIELDS].map(([key, column]): [string, ColumnRule] => [key, { kind: 'text', column }]),
  ...[...NUMBER_FIELDS].map(([key, column]): [string, ColumnRule] => [key, { kind: 'number', column }]),
]);

// Real files carry the vendor's brand where the protocol says `vendor` (wire-formats §3.1).
const BRANDED_KEY = /^[a-z][a-z0-9]*(ExchangeCode|BaseCode|Exchange)$/;
const BRANDED_TARGET: Record<string, TextKey> = {
  ExchangeCode: 'vendorExchangeCode',
  BaseCode: 'vendorBaseCode',
  Exchange: 'vendorExchange',
};

function emptyInstrument(marketId: string): InstrumentRow {
  return {
    marketId,
    symbol: null,
    exchangeCode: null,
    instrumentType: null,
    description: null,
    currencyCode: null,
    cfiCode: null,
    isin: null,
    vendorId: null,
    vendorExchange: null,
    vendorExchangeCode: null,
    vendorBaseCode: null,
    exchangeId: null,
    instrumentGroup: null,
    state: null,
    tickSize: null,
    pointValue: null,
    priceDenominator: null,
    quantityDenominator: null,
    timeZone: null,
    firstTradeDate: null,
    lastTradeDate: null,
    expiration: null,
    maturity: null,
    underlying: null,
    underlyingMarketId: null,
    optionStrike: null,
    optionType: null,
    optionStyle: null,
    spreadCode: null,
    contractSize: null,
    createdAt: null,
    updatedAt: null,
    extra: null,
  };
}

function hasOnly(object: JsonObject, keys: readonly string[]): boolean {
  for (const key of Object.keys(object)) if (!keys.includes(key)) return false;
  return true;
}

const smallInt = (value: JsonValue | undefined): number | undefined =>
  value === undefined ? 0 : typeof value === 'number' && Number.isInteger(value) ? value : undefined;

const DATE_PARTS = ['year', 'month', 'day'];
const MONTH_PARTS = ['year', 'month'];

/** `{year, month, day}` as an ISO date, or undefined when it holds anything else. */
function partsDate(value: JsonValue, withDay: boolean): string | undefined {
  if (!isJsonObject(value) || !hasOnly(value, withDay ? DATE_PARTS : MONTH_PARTS)) return;
  const year = smallInt(value['year']);
  const month = smallInt(value['month']);
  const day = smallInt(value['day']);
  if (year === undefined || month === undefined || day === undefined) return;
  return calendarDate(year, month, day);
}

const dateOfEvent = (event: JsonObject | undefined): string | null => {
  const ms = event === undefined ? undefined : numberText(event['date']);
  return (ms && epochMsToIsoDate(ms)) ?? null;
};

/** The first and last trade dates of `calendar.events`: of the first event of each type. */
function tradeDates(calendar: JsonValue): [string | null, string | null] {
  const events = isJsonObject(calendar) ? calendar['events'] : undefined;
  if (!Array.isArray(events)) return [null, null];
  let first: JsonObject | undefined;
  let last: JsonObject | undefined;
  for (const item of events) {
    if (!isJsonObject(item)) continue;
    const type = item['type'];
    if (first === undefined && type === 'FIRST_TRADE_DATE') first = item;
    else if (last === undefined && type === 'LAST_TRADE_DATE') last = item;
  }
  return [dateOfEvent(first), dateOfEvent(last)];
}

function symbolRows(marketId: string, value: JsonValue): [SymbolRow[], boolean] {
  if (!Array.isArray(value)) return [[], false];
  const rows: SymbolRow[] = [];
  let complete = true;
  for (const item of value) {
    const vendor = isJsonObject(item) ? (item['vendor'] ?? '') : undefined;
    const symbol = isJsonObject(item) ? (item['symbol'] ?? '') : undefined;
    const longSymbol = isJsonObject(item) ? (item['longSymbol'] ?? null) : undefined;
    if (
      !isJsonObject(item) ||
      typeof vendor !== 'string' ||
      typeof symbol !== 'string' ||
      (longSymbol !== null && typeof longSymbol !== 'string')
    ) {
      complete = false;
      continue;
    }
    if (!hasOnly(item, ['vendor', 'symbol', 'longSymbol'])) complete = false;
    rows.push({ marketId, vendor, symbol, longSymbol: longSymbol ?? null });
  }
  return [rows, complete];
}

function spreadLegRows(marketId: string, value: JsonValue): [SpreadLegRow[], boolean] {
  if (!Array.isArray(value)) return [[], false];
  const rows: SpreadLegRow[] = [];
  let complete = true;
  for (const [legIndex, item] of value.entries()) {
    if (!isJsonObject(item)) {
      complete = false;
      continue;
    }
    const legMarketId = numberText(item['marketId']) ?? null;
    const ratio = item['ratio'] ?? null;
    const symbol = item['symbol'] ?? null;
    const typed =
      (ratio === null || isJsonNumber(ratio)) &&
      (symbol === null || typeof symbol === 'string') &&
      (item['marketId'] === undefined || legMarketId !== null);
    if (!typed || !hasOnly(item, ['marketId', 'ratio', 'symbol'])) complete = false;
    rows.push({
      marketId,
      legIndex,
      legMarketId,
      ratio: isJsonNumber(ratio) ? ratio : null,
      symbol: typeof symbol === 'string' ? symbol : null,
    });
  }
  return [rows, complete];
}

function textOf(value: JsonValue): string | undefined {
  return typeof value === 'string' ? value : isJsonNumber(value) ? numberText(value) : undefined;
}

// Nothing is dropped: a field lands in `extra` unless a column renders it whole, so `calendar` stays there
// (raw dates, other events) next to the trade-date columns. A missing marketId is "0", its protobuf default.
/** The rows one instrument entry gives the three profile tables (wire-formats §3.2), ids as exact strings. */
export function toProfileRows(entry: InstrumentEntry): ProfileRows {
  const marketId = numberText(entry['marketId']) ?? '0';
  const row = emptyInstrument(marketId);
  const extra: JsonObject = {};
  const branded: [string, TextKey][] = [];
  let symbols: SymbolRow[] = [];
  let spreadLegs: SpreadLegRow[] = [];
  const keep = (key: string, value: JsonValue) => setJsonKey(extra, key, value);

  for (const key of Object.keys(entry)) {
    const value = entry[key] as JsonValue;
    const rule = COLUMN_RULES.get(key);
    if (key === 'marketId') {
      if (numberText(value) === undefined) keep(key, value);
    } else if (rule?.kind === 'text') {
      const text = textOf(value);
      if (text === undefined) keep(key, value);
      else row[rule.column] = text;
    } else if (rule?.kind === 'number') {
      if (isJsonNumber(value)) row[rule.column] = value;
      else keep(key, value);
    } else {
      switch (key) {
        case 'calendar':
          [row.firstTradeDate, row.lastTradeDate] = tradeDates(value);
          keep(key, value);
          break;
        case 'symbolExpiration':
          row.expiration = partsDate(value, true) ?? null;
          if (row.expiration === null) keep(key, value);
          break;
        case 'contractMaturity':
          row.maturity = partsDate(value, false) ?? null;
          if (row.maturity === null) keep(key, value);
          break;
        case 'recordCreateTime':
        case 'recordUpdateTime': {
          const text = numberText(value);
          const iso = text === undefined ? undefined : epochNsToIso(text);
          if (iso === undefined) keep(key, value);
          else if (key === 'recordCreateTime') row.createdAt = iso;
          else row.updatedAt = iso;
          break;
        }
        case 'optionStrike':
        case 'optionStrikeDenominator':
          break;
        case 'symbols': {
          const [rows, complete] = symbolRows(marketId, value);
          symbols = rows;
          if (!complete) keep(key, value);
          break;
        }
        case 'spreadLeg': {
          const [rows, complete] = spreadLegRows(marketId, value);
          spreadLegs = rows;
          if (!complete) keep(key, value);
          break;
        }
        default: {
          const match = BRANDED_KEY.exec(key);
          const target = match?.[1] === undefined ? undefined : BRANDED_TARGET[match[1]];
          if (target !== undefined && typeof value === 'string') branded.push([key, target]);
          else keep(key, value);
        }
      }
    }
  }

  // The protocol's own names win over branded ones, wherever each sits in the entry.
  for (const [key, target] of branded) {
    if (row[target] === null) row[target] = entry[key] as string;
    else keep(key, entry[key] as JsonValue);
  }

  const strike = entry['optionStrike'];
  if (strike !== undefined) {
    const denominator = entry['optionStrikeDenominator'];
    // A missing or zero denominator is the protobuf default, which means "not scaled".
    const divisor = denominator === undefined || denominator === 0 ? '1' : numberText(denominator);
    const numerator = numberText(strike);
    row.optionStrike =
      (numerator !== undefined && divisor !== undefined && divideDecimal(numerator, divisor)) || null;
  }
  if (row.optionStrike === null) {
    for (const key of ['optionStrike', 'optionStrikeDenominator']) {
      const value = entry[key];
      if (value !== undefined) keep(key, value);
    }
  }

  row.extra = Object.keys(extra).length === 0 ? null : stringifyLossless(extra);
  return { instrument: row, symbols, spreadLegs };
}
