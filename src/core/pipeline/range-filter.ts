import type { KeyOf } from './edge-filter.js';
import { lineEndAfter } from './line-regions.js';

/**
 * Keeps the rows of a dated answer that is no time series (events: one run of dates per symbol) whose
 * date lies in [startKey, endKey): every line is read, as the runs of several symbols each start over.
 * A server that ignores `start` sends earlier events, which were not asked for
 * (docs/completeness.md#the-window-is-the-window).
 */
export class RangeFilter {
  /** Rows dropped for being before the start. */
  repeated = 0;
  private pastStart: boolean;

  constructor(
    private readonly keyOf: KeyOf,
    private readonly startKey: string | undefined,
    private readonly endKey: string | undefined,
  ) {
    this.pastStart = startKey === undefined;
  }

  /** True once a row at or after the start was seen (always, without a start). */
  get reachedStart(): boolean {
    return this.pastStart;
  }

  /** The lines of `region` inside the range: the region itself when all are, else a copy of them. */
  keep(region: Buffer): Buffer {
    const kept: Buffer[] = [];
    let dropped = false;
    for (let at = 0; at < region.length; ) {
      const next = lineEndAfter(region, at);
      const end = next < 0 ? region.length : next;
      const key = this.keyOf(region, at, end);
      const before = key !== undefined && this.startKey !== undefined && key < this.startKey;
      const after = key !== undefined && this.endKey !== undefined && key >= this.endKey;
      if (before) this.repeated++;
      else if (key !== undefined) this.pastStart = true;
      if (before || after) dropped = true;
      else kept.push(region.subarray(at, end));
      at = end;
    }
    return dropped ? Buffer.concat(kept) : region;
  }
}
