/**
 * The rows of the two child tables of an instrument's profile, `symbols` and `spread_legs`
 * (docs/formats.md#profile-tables): each with whether the JSON value fit them whole.
 */
import { isJsonNumber, isJsonObject, type JsonObject, type JsonValue, numberText } from './lossless-json.js';
import type { SpreadLegRow, SymbolRow } from './profile-tables.js';

/** True when `object` has no key but `keys`. */
export const hasOnly = (object: JsonObject, keys: readonly string[]) =>
  Object.keys(object).every((key) => keys.includes(key));

/** The `symbols` rows of one instrument, and whether they held all of its value (else it goes to `extra`). */
export function symbolRows(marketId: string, value: JsonValue): [SymbolRow[], boolean] {
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

/** The `spread_legs` rows of one instrument, and whether they held all of its value. */
export function spreadLegRows(marketId: string, value: JsonValue): [SpreadLegRow[], boolean] {
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
