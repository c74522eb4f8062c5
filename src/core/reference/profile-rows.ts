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
import { hasOnly, spreadLegRows, symbolRows } from './profile-child-rows.js';
import type { InstrumentRow, ProfileRows, SpreadLegRow, SymbolRow } from './profile-tables.js';

type TextKey = {
  [K in keyof InstrumentRow]: InstrumentRow[K] extends string | null ? K : never;
}[keyof InstrumentRow];
type NumberKey = {
  [K in keyof InstrumentRow]: InstrumentRow[K] extends JsonNumber | null ? K : never;
}[keyof InstrumentRow];

// Fields copied to a column unchanged. Enums are text: an unknown value may come as a number
// (docs/service.md#json-conventions).
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
// One lookup a key instead of one a table: every entry has some forty keys.
const COLUMN_RULES = new Map<string, ColumnRule>([
  ...[...TEXT_FIELDS].map(([key, column]): [string, ColumnRule] => [key, { kind: 'text', column }]),
  ...[...NUMBER_FIELDS].map(([key, column]): [string, ColumnRule] => [key, { kind: 'number', column }]),
]);

// Real files carry the vendor's brand where the protocol says `vendor` (docs/service.md#json-conventions).
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

function textOf(value: JsonValue): string | undefined {
  return typeof value === 'string' ? value : isJsonNumber(value) ? numberText(value) : undefined;
}

// Nothing is dropped: a field lands in `extra` unless a column renders it whole, so `calendar` stays there
// (raw dates, other events) next to the trade-date columns. A missing marketId is "0", its protobuf default.
/**
 * The rows one instrument entry gives the three profile tables (docs/formats.md#profile-tables), ids as exact
 * strings.
 */
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
