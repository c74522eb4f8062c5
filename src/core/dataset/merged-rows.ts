import type { Ledger, LedgerRow } from './ledger.js';

/** The rows of several ledgers as one: for a path in more than one, the latest fetch. */
export function mergedRows(ledgers: readonly Ledger[]): Map<string, LedgerRow> {
  const rows = new Map<string, LedgerRow>();
  for (const ledger of ledgers)
    for (const [path, row] of ledger.rows()) {
      const seen = rows.get(path);
      if (!seen || seen.fetchedAt < row.fetchedAt) rows.set(path, row);
    }
  return rows;
}
