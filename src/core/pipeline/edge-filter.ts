import { lastLineBefore, lineEndAfter } from './line-regions.js';

const EMPTY = Buffer.alloc(0);

/** Reads the time key of the line [start, end) of `bytes`; undefined for a line without one. */
export type KeyOf = (bytes: Buffer, start: number, end: number) => string | undefined;

/**
 * Keeps the rows of a response inside its window (docs/completeness.md#the-window-is-the-window). Rows at
 * or past the window's end are dropped, so windows never overlap whether the service's `end` is exclusive
 * (ticks, minutes) or inclusive (EOD). Rows before its start are dropped too: a server that ignores
 * `start` (or rounds it) answers from earlier, and those rows are outside what was asked, or already
 * written. Ascending, only the leading run of such rows goes: once a row at or after the start is seen,
 * every later row is kept, so the repeated hour of an autumn night, whose keys step back, stays whole;
 * descending, the trailing run. Only the edge lines of a region are read, unless one of them is out.
 */
export class EdgeFilter {
  /** Rows dropped for being before the start: rows the server sent from before what was asked. */
  repeated = 0;
  private pastEnd = false;
  private pastStart: boolean;
  private beforeStart = false;

  constructor(
    private readonly keyOf: KeyOf,
    private readonly order: 'asc' | 'desc',
    /** Keys at or past this one are outside (exclusive end); undefined: no end to keep. */
    private readonly endKey: string | undefined,
    /** Keys before this one are outside; undefined: no start to keep. */
    private readonly startKey: string | undefined,
  ) {
    this.pastStart = startKey === undefined;
  }

  /** True once a row at or after the start was seen (always, without a start). */
  get reachedStart(): boolean {
    return this.pastStart;
  }

  /** The lines of `region` inside the window (a subarray of it, or the region itself). */
  keep(region: Buffer): Buffer {
    let kept = region;
    if (this.order === 'desc' && this.startKey !== undefined) kept = this.aboveStart(kept, this.startKey);
    else if (!this.pastStart) kept = this.afterStart(kept);
    if (this.endKey !== undefined) kept = this.beforeEnd(kept, this.endKey);
    return kept;
  }

  private afterStart(region: Buffer): Buffer {
    const startKey = this.startKey as string;
    let at = 0;
    while (at < region.length) {
      const next = lineEndAfter(region, at);
      const end = next < 0 ? region.length : next;
      const key = this.keyOf(region, at, end);
      if (key !== undefined && key >= startKey) {
        this.pastStart = true;
        return region.subarray(at);
      }
      if (key !== undefined) this.repeated++;
      at = end;
    }
    return EMPTY;
  }

  /** Descending (newest first): rows before the start come last, and every row after the first of them. */
  private aboveStart(region: Buffer, startKey: string): Buffer {
    let at = 0;
    while (!this.beforeStart && at < region.length) {
      const next = lineEndAfter(region, at);
      const end = next < 0 ? region.length : next;
      const key = this.keyOf(region, at, end);
      if (key !== undefined && key < startKey) this.beforeStart = true;
      else {
        if (key !== undefined) this.pastStart = true;
        at = end;
      }
    }
    if (at < region.length) this.repeated += this.countKeys(region, at);
    return at === region.length ? region : region.subarray(0, at);
  }

  private countKeys(region: Buffer, from: number): number {
    let count = 0;
    for (let at = from; at < region.length; ) {
      const next = lineEndAfter(region, at);
      const end = next < 0 ? region.length : next;
      if (this.keyOf(region, at, end) !== undefined) count++;
      at = end;
    }
    return count;
  }

  /** Ascending, rows past the end come last; descending (newest first), they come first. */
  private beforeEnd(region: Buffer, endKey: string): Buffer {
    const past = (start: number, end: number) => {
      const key = this.keyOf(region, start, end);
      return key !== undefined && key >= endKey;
    };
    if (this.order === 'desc') {
      let start = 0;
      while (!this.pastEnd && start < region.length) {
        const next = lineEndAfter(region, start);
        const end = next < 0 ? region.length : next;
        if (!past(start, end)) {
          this.pastEnd = true; // descending: once inside the window, every later row is too
          break;
        }
        start = end;
      }
      return region.subarray(start);
    }
    if (this.pastEnd) return EMPTY;
    const last = lastLineBefore(region, region.length);
    if (!last || !past(last.start, last.end)) return region;
    let at = 0;
    while (at < region.length) {
      const next = lineEndAfter(region, at);
      const end = next < 0 ? region.length : next;
      if (past(at, end)) break;
      at = end;
    }
    this.pastEnd = true;
    return region.subarray(0, at);
  }
}
