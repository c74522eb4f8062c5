import type { JsonNumber } from './lossless-json.js';

/** One row of the `instruments` table: one instrument definition (docs/formats.md#profile-tables). */
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
  // Text, not REAL: the strike is an exact decimal that a double could round.
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
