import { createReadStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { MdgetError, reasonOf } from '../model/errors.js';
import { drained } from '../sink/atomic-file.js';
import type { OutputGroup } from './run-state.js';

/** How the kept rows of an old file are read: its format, compression and (Parquet) columns. */
export interface KeptShape {
  parquet: boolean;
  gzip: boolean;
  columns: readonly string[];
  utc: boolean;
}

/**
 * The measure of an output as it is written, symbol by symbol: decompressed bytes, or Parquet rows. With
 * an --update's copies (resume-recorded.ts), it also writes each symbol's kept rows of the old file
 * before that symbol's new rows, and the rows of symbols that have nothing new.
 */
export class OutputTally {
  written = 0;
  private readonly ends = new Map<string, number>();
  private readonly pending: NonNullable<OutputGroup['copies']>;

  constructor(
    group: OutputGroup,
    private readonly path: string | undefined,
    private readonly shape: KeptShape,
  ) {
    this.pending = [...(group.copies ?? [])];
  }

  /** Counts `amount` written for `symbol`. */
  wrote(symbol: string, amount: number): void {
    this.written += amount;
    this.ends.set(symbol, this.written);
  }

  /** Writes the kept rows of every symbol up to `symbol` (all of them when undefined) into `into`. */
  async keptUpTo(symbol: string | undefined, into: Writable): Promise<void> {
    if (symbol !== undefined && !this.pending.some((copy) => copy.symbol === symbol)) return;
    while (this.pending.length > 0 && this.path !== undefined) {
      const next = this.pending.shift()!;
      for (const [from, to] of next.ranges) if (to > from) await this.copy(from, to, into);
      this.ends.set(next.symbol, this.written);
      if (next.symbol === symbol) return;
    }
  }

  /** Where each symbol's rows end, in the order of `symbols` (a symbol with none ends where the last did). */
  endsOf(symbols: readonly string[]): number[] {
    let last = 0;
    return symbols.map((symbol) => {
      last = Math.max(last, this.ends.get(symbol) ?? last);
      return last;
    });
  }

  private async copy(from: number, to: number, into: Writable): Promise<void> {
    try {
      await this.copyRange(this.path as string, from, to, into);
    } catch (error) {
      if (error instanceof MdgetError) throw error;
      throw new MdgetError('MDGET_IO', `cannot read ${this.path}: ${reasonOf(error)}`, { cause: error });
    }
  }

  private async copyRange(path: string, from: number, to: number, into: Writable): Promise<void> {
    if (this.shape.parquet) {
      const { copyParquetRows } = await import('./update-parquet.js');
      await copyParquetRows(path, from, to, into, this.shape.columns, this.shape.utc);
      this.written += to - from;
      return;
    }
    // a gzip file is read from its start, decompressed; a plain one at the range itself
    const file = this.shape.gzip
      ? createReadStream(path)
      : createReadStream(path, { start: from, end: to - 1 });
    const source = this.shape.gzip ? file.pipe(createGunzip()) : file;
    let at = this.shape.gzip ? 0 : from;
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        const piece = chunk.subarray(Math.max(0, from - at), Math.max(0, Math.min(chunk.length, to - at)));
        at += chunk.length;
        if (piece.length > 0 && !into.write(piece)) await drained(into);
        this.written += piece.length;
        if (at >= to) break;
      }
    } finally {
      file.destroy();
      source.destroy();
    }
  }
}
