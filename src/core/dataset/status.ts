/**
 * `status`: where a dataset stands, from its plan and its ledgers (every shard's), without a request: per
 * series, the files planned, complete, provisional, missing and failed in the last sync, with rows and
 * bytes on disk.
 */
import { stat } from 'node:fs/promises';
import type { Dataset } from './dataset.js';
import { Ledger, type LedgerRow, type SyncRecord } from './ledger.js';
import { mergedRows } from './merged-rows.js';
import { planDataset } from './series-plan.js';

/** One series' standing. */
export interface SeriesStatus {
  name: string;
  kind: string;
  planned: number;
  complete: number;
  provisional: number;
  missing: number;
  /** Files of this series that failed in the last sync of any ledger. */
  failed: number;
  rows: number;
  bytes: number;
  /**
   * The newest day whose data is final (`YYYY-MM-DD`, market date): the last of a complete file's window,
   * or of a provisional file's before the day it was fetched. The series' freshness.
   */
  newestComplete?: string;
}

export interface DatasetStatus {
  root: string;
  series: SeriesStatus[];
  /** The ledger files read (one per shard). */
  ledgers: string[];
  /** The latest sync any ledger recorded. */
  lastSync?: SyncRecord;
  /** Every planned file is complete or provisional, and no sync left a failure. */
  complete: boolean;
}

/** The status of `dataset` at `now`. */
export async function datasetStatus(dataset: Dataset, now: Date): Promise<DatasetStatus> {
  const plans = planDataset(
    dataset.series,
    // plans hold no URL: the files are planned without credentials or base URLs
    { config: {}, now, root: dataset.root },
    dataset.reference,
  );
  const ledgers = Ledger.openAll(dataset.root);
  let rows: Map<string, LedgerRow>;
  const syncs: SyncRecord[] = [];
  try {
    rows = mergedRows(ledgers);
    for (const ledger of ledgers) {
      const last = ledger.lastSync();
      if (last) syncs.push(last);
    }
  } finally {
    for (const ledger of ledgers) ledger.close();
  }
  const failedPaths = new Set(syncs.flatMap((s) => s.failures.map((f) => f.path)));
  const series: SeriesStatus[] = [];
  for (const plan of plans) {
    const s: SeriesStatus = {
      name: plan.series.name,
      kind: plan.series.kind,
      planned: plan.outputs.length,
      complete: 0,
      provisional: 0,
      missing: 0,
      failed: 0,
      rows: 0,
      bytes: 0,
    };
    for (const output of plan.outputs) {
      const row = rows.get(output.key);
      const size = await stat(output.path).then(
        (info) => info.size,
        () => undefined,
      );
      if (size !== undefined) s.bytes += size;
      // failures are kept by path under root (older ledgers kept them absolute)
      if (failedPaths.has(output.key) || failedPaths.has(output.path)) s.failed++;
      let final: string | undefined;
      if (!row || size === undefined || size !== row.bytes) s.missing++;
      else if (row.provisional) {
        s.provisional++;
        // its days before the day it was fetched are final: a growing file is never complete
        const fetchedDay = row.fetchedAt.slice(0, 10);
        const last = lastDayOf({ end: row.windowEnd ?? fetchedDay });
        final = last && last < fetchedDay ? last : lastDayOf({ end: fetchedDay });
      } else if (
        output.series.growing &&
        row.windowEnd !== undefined &&
        output.window.end !== undefined &&
        output.window.end > row.windowEnd
      ) {
        s.provisional++; // behind the planned end: the next sync appends the rest
        final = lastDayOf({ end: row.windowEnd });
      } else {
        s.complete++;
        final = lastDayOf(output.window);
      }
      if (final && (s.newestComplete === undefined || final > s.newestComplete)) s.newestComplete = final;
      if (row?.rows) s.rows += row.rows;
    }
    series.push(s);
  }
  const lastSync = syncs.sort((a, b) => a.startedAt.localeCompare(b.startedAt)).at(-1);
  return {
    root: dataset.root,
    series,
    ledgers: ledgers.map((l) => l.path),
    ...(lastSync ? { lastSync } : {}),
    complete: series.every((s) => s.missing === 0 && s.failed === 0),
  };
}

/** The last day a window covers (its end is exclusive): the day before a midnight end, else the end's day. */
function lastDayOf(window: { start?: string; end?: string }): string | undefined {
  const { end } = window;
  if (end === undefined) return window.start?.slice(0, 10);
  const midnight = end.length === 10 || end.endsWith('T00:00:00');
  if (!midnight) return end.slice(0, 10);
  return new Date(Date.parse(`${end.slice(0, 10)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
