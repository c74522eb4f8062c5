/**
 * The gaps `verify` calls suspicious: for ticks and minutes, a weekday window with no rows between two
 * windows of the same symbol that have rows; for EOD, more than four weekdays without a bar inside a range
 * that has bars. A weekend is never a gap; a holiday is, and the user decides.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { LedgerRow } from './ledger.js';

/** A suspicious gap: the file (or files) around it and what is missing. */
export interface Gap {
  series: string;
  symbol: string;
  path: string;
  detail: string;
}

const isWeekday = (day: string): boolean => {
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`).getUTCDay();
  return d !== 0 && d !== 6;
};

/** Windows with no rows between windows with rows, per series and symbol, from the ledger's rows. */
export function windowGaps(rows: readonly LedgerRow[]): Gap[] {
  const bySymbol = new Map<string, LedgerRow[]>();
  for (const row of rows) {
    if (row.windowStart === undefined || row.rows === null) continue;
    const key = `${row.series}\u0000${row.symbol}`;
    bySymbol.set(key, [...(bySymbol.get(key) ?? []), row]);
  }
  const gaps: Gap[] = [];
  for (const list of bySymbol.values()) {
    list.sort((a, b) => (a.windowStart ?? '').localeCompare(b.windowStart ?? ''));
    const firstFull = list.findIndex((r) => (r.rows ?? 0) > 0);
    const lastFull = list.findLastIndex((r) => (r.rows ?? 0) > 0);
    for (let i = firstFull + 1; firstFull >= 0 && i < lastFull; i++) {
      const row = list[i] as LedgerRow;
      if (row.rows === 0 && isWeekday(row.windowStart ?? ''))
        gaps.push({
          series: row.series,
          symbol: row.symbol,
          path: row.path,
          detail: `no rows on ${row.windowStart?.slice(0, 10)}, a weekday between days with rows`,
        });
    }
  }
  return gaps;
}

const ISO_DAY = /(?:^|[,"\s])(\d{4})-(\d{2})-(\d{2})/;
const US_DAY = /(?:^|[,"\s])(\d{1,2})\/(\d{1,2})\/(\d{4})/;

/** The first date of a line: `2025-03-13` or `3/13/2025`, as the EOD formats write it. */
function dayOf(line: string): string | undefined {
  const iso = ISO_DAY.exec(line);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = US_DAY.exec(line);
  return us ? `${us[3]}-${us[1]?.padStart(2, '0')}-${us[2]?.padStart(2, '0')}` : undefined;
}

/** Runs of more than four weekdays without a bar inside the range of an EOD file's bars. */
export async function barGaps(path: string, absolute: string, row: LedgerRow): Promise<Gap[]> {
  const input = createReadStream(absolute);
  const lines = createInterface({
    input: path.endsWith('.gz') ? input.pipe(createGunzip()) : input,
    crlfDelay: Infinity,
  });
  const days = new Set<string>();
  for await (const line of lines) {
    const day = dayOf(line);
    if (day) days.add(day);
  }
  const sorted = [...days].sort();
  const gaps: Gap[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const from = sorted[i - 1] as string;
    const to = sorted[i] as string;
    let weekdays = 0;
    for (
      let t = Date.parse(`${from}T00:00:00Z`) + 86_400_000;
      t < Date.parse(`${to}T00:00:00Z`);
      t += 86_400_000
    )
      if (isWeekday(new Date(t).toISOString())) weekdays++;
    if (weekdays > 4)
      gaps.push({
        series: row.series,
        symbol: row.symbol,
        path,
        detail: `no bar for ${weekdays} weekdays between ${from} and ${to}`,
      });
  }
  return gaps;
}
