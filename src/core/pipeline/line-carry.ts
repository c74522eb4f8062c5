import { type CheckContext, checkLineLength } from './body-checks.js';
import { completeLinesEnd, lineEndAfter } from './line-regions.js';

const EMPTY = Buffer.alloc(0);

/**
 * Splits a body into regions of complete lines as its chunks come, carrying the rest to the next chunk: an
 * unfinished last line, and, when `groupOf` is given, the trailing group of lines that share a time key (a
 * response cut by the server may hold only part of it). What is carried is a copy, so the chunk it came in
 * can go back to the pool at once.
 */
export class LineCarry {
  private carried: Buffer = EMPTY;

  constructor(
    private readonly check: CheckContext,
    /** Where the trailing key group of `bytes`' first `end` bytes starts; absent: nothing held back. */
    private readonly groupOf?: (bytes: Buffer, end: number) => number,
  ) {}

  /** Starts the carry with bytes already held (a body's head, seen whole at its end). */
  hold(bytes: Buffer): void {
    this.carried = bytes;
  }

  /** The regions of complete lines `bytes` completes, in order, to `emit` (at most two calls). */
  take(bytes: Buffer, emit: (region: Buffer) => void): void {
    const carried = this.carried;
    // The carried bytes are small: join them with the chunk's first line only, so a chunk is not copied
    // whole; the rest of it is cut where its trailing key group starts.
    const firstEnd = carried.length > 0 ? lineEndAfter(bytes) : 0;
    if (firstEnd > 0 && firstEnd < bytes.length) {
      const rest = bytes.subarray(firstEnd);
      const end = completeLinesEnd(rest);
      const cut = end === 0 ? 0 : this.cutAt(rest, end);
      if (cut > 0) {
        emit(Buffer.concat([carried, bytes.subarray(0, firstEnd)]));
        checkLineLength(rest.length - end, this.check);
        this.carried = Buffer.from(rest.subarray(cut));
        emit(rest.subarray(0, cut));
        return;
      }
    }
    const buffer = carried.length > 0 ? Buffer.concat([carried, bytes]) : bytes;
    const end = completeLinesEnd(buffer);
    checkLineLength(buffer.length - end, this.check);
    if (end === 0) {
      this.carried = buffer === bytes ? Buffer.from(bytes) : buffer;
      return;
    }
    const cut = this.cutAt(buffer, end);
    this.carried = Buffer.from(buffer.subarray(cut));
    emit(buffer.subarray(0, cut));
  }

  /** What is carried at the body's end: its last lines (the held group, a last line without end). */
  rest(): Buffer {
    const rest = this.carried;
    this.carried = EMPTY;
    return rest;
  }

  private cutAt(bytes: Buffer, end: number): number {
    return this.groupOf ? this.groupOf(bytes, end) : end;
  }
}
