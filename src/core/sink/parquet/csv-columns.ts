import { MdgetError } from '../../model/errors.js';
import type { ColumnBatch, NumberColumn, StringColumn } from './column-batch.js';

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const DAY_MS = 86_400_000;
const LF = 10;
const CR = 13;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const COLON = 58;

/**
 * mdget's csv lines (no header; fields never quoted: the service's own lines plus a symbol column) read
 * straight from bytes into a ColumnBatch: numbers from their digits, times from fixed positions, text
 * through the batch's dictionary with a shortcut for a value equal to the row above's (symbols, session
 * codes). An empty field is null, as in the library's records. `take` returns where it stopped when the
 * batch filled up, so the writer can empty it before the rest of the chunk is read.
 */
export class CsvColumnReader {
  private readonly kinds: number[];
  private readonly starts: Int32Array;
  /** The bytes and code of the last text value of each column: runs of one value are the usual case. */
  private readonly lastBytes: Buffer[];
  private readonly lastLength: Int32Array;
  private readonly lastCode: Int32Array;
  private dayKey = -1;
  private dayMs = 0;
  private dateKey = -1;
  private dateDays = 0;

  constructor(
    private readonly batch: ColumnBatch,
    private readonly full: (batch: ColumnBatch) => boolean,
  ) {
    const n = batch.schema.length;
    this.kinds = batch.schema.map(({ type }) => KIND[type]);
    this.starts = new Int32Array(n + 1);
    this.lastBytes = batch.schema.map(() => Buffer.alloc(64));
    this.lastLength = new Int32Array(n).fill(-1);
    this.lastCode = new Int32Array(n);
  }

  /** Forgets the text shortcuts: the batch was emptied, its dictionary codes no longer hold. */
  cleared(): void {
    this.lastLength.fill(-1);
  }

  /**
   * Reads the complete lines of `bytes` from `from` on; returns where it stopped because the batch is full
   * (more lines may follow), or -1 once every complete line was read. The bytes after the last line end
   * are left to the caller.
   */
  take(bytes: Buffer, from: number): number {
    const batch = this.batch;
    let at = from;
    for (let nl = bytes.indexOf(LF, at); nl >= 0; nl = bytes.indexOf(LF, at)) {
      const end = nl > at && bytes[nl - 1] === CR ? nl - 1 : nl;
      if (end > at) {
        this.row(bytes, at, end);
        batch.bytes += nl + 1 - at;
      }
      at = nl + 1;
      if (this.full(batch)) return at;
    }
    return -1;
  }

  /** One line [start, end) of `bytes` into the next row of the batch. */
  private row(bytes: Buffer, start: number, end: number): void {
    const { batch, starts, kinds } = this;
    const n = kinds.length;
    let field = 0;
    starts[0] = start;
    for (let p = start; p < end; p++) {
      if (bytes[p] === COMMA) {
        if (++field >= n) break;
        starts[field] = p + 1;
      }
    }
    if (field !== n - 1) {
      throw new MdgetError(
        'MDGET_SERVICE',
        `a line of the service does not fit the ${n} columns of this Parquet output (${bytes.toString('latin1', start, Math.min(end, start + 80))}): write csv or raw instead`,
      );
    }
    starts[n] = end + 1;
    batch.reserve();
    const row = batch.rows;
    for (let c = 0; c < n; c++) {
      const s = starts[c]!;
      const e = starts[c + 1]! - 1;
      if (s === e) {
        batch.setNull(c, row);
        continue;
      }
      const column = batch.columns[c]!;
      column.present[row] = 1;
      switch (kinds[c]) {
        case STRING:
          this.text(column as StringColumn, c, bytes, s, e, row);
          break;
        case DOUBLE:
          (column as NumberColumn).values[row] = readDouble(bytes, s, e);
          break;
        case INTEGER:
          (column as NumberColumn).values[row] = this.integer(bytes, s, e, c);
          break;
        case TIMESTAMP:
          (column as NumberColumn).values[row] = this.time(bytes, s, e, c);
          break;
        case DATE:
          (column as NumberColumn).values[row] = this.date(bytes, s, e, c);
          break;
      }
    }
    batch.rows = row + 1;
  }

  private text(column: StringColumn, c: number, bytes: Buffer, s: number, e: number, row: number): void {
    const length = e - s;
    const last = this.lastBytes[c]!;
    if (length === this.lastLength[c]) {
      let k = 0;
      while (k < length && bytes[s + k] === last[k]) k++;
      if (k === length) {
        column.codes[row] = this.lastCode[c]!;
        return;
      }
    }
    const value = bytes.toString('utf8', s, e);
    let code = column.codeOf.get(value);
    if (code === undefined) {
      code = column.dictionary.length;
      column.dictionary.push(value);
      column.codeOf.set(value, code);
    }
    column.codes[row] = code;
    if (length <= last.length) {
      bytes.copy(last, 0, s, e);
      this.lastLength[c] = length;
      this.lastCode[c] = code;
    } else this.lastLength[c] = -1;
  }

  private integer(bytes: Buffer, s: number, e: number, c: number): number {
    let p = s;
    const negative = bytes[p] === MINUS;
    if (negative) p++;
    let value = 0;
    for (; p < e; p++) {
      const digit = bytes[p]! - 48;
      if (digit < 0 || digit > 9) throw this.notA('whole number', bytes, s, e, c);
      value = value * 10 + digit;
    }
    if (p === s + (negative ? 1 : 0) || value > Number.MAX_SAFE_INTEGER)
      throw this.notA('whole number', bytes, s, e, c);
    return negative ? -value : value;
  }

  /**
   * A time in ms: `YYYY-MM-DD HH:MM[:SS[.fff]]` (the service's wall clock, kept as wall-clock ms) or
   * `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or `±HH:MM` (--utc, --tz: the instant).
   */
  private time(bytes: Buffer, s: number, e: number, c: number): number {
    if (e - s < 16 || bytes[s + 13] !== COLON) throw this.notA('time', bytes, s, e, c);
    const day = dayKeyAt(bytes, s);
    if (day !== this.dayKey) {
      const ms = Date.parse(`${bytes.toString('latin1', s, s + 10)}T00:00:00Z`);
      if (Number.isNaN(ms)) throw this.notA('time', bytes, s, e, c);
      this.dayKey = day;
      this.dayMs = ms;
    }
    let ms = this.dayMs + two(bytes, s + 11) * 3_600_000 + two(bytes, s + 14) * 60_000;
    let p = s + 16;
    if (p < e && bytes[p] === COLON) {
      ms += two(bytes, p + 1) * 1000;
      p += 3;
      if (p < e && bytes[p] === DOT) {
        let scale = 100;
        for (p++; p < e && bytes[p]! >= 48 && bytes[p]! <= 57; p++) {
          ms += (bytes[p]! - 48) * scale;
          scale /= 10;
        }
      }
    }
    if (p < e) {
      const sign = bytes[p];
      if (sign === 90 && p + 1 === e) return Math.round(ms); // Z
      if ((sign !== 43 && sign !== MINUS) || e - p < 6) throw this.notA('time', bytes, s, e, c);
      const offset = (two(bytes, p + 1) * 60 + two(bytes, p + 4)) * 60_000;
      ms -= sign === 43 ? offset : -offset;
    }
    if (Number.isNaN(ms)) throw this.notA('time', bytes, s, e, c);
    return Math.round(ms);
  }

  /** `YYYY-MM-DD` as days since 1970-01-01. */
  private date(bytes: Buffer, s: number, e: number, c: number): number {
    if (e - s !== 10) throw this.notA('date', bytes, s, e, c);
    const key = dayKeyAt(bytes, s);
    if (key !== this.dateKey) {
      const ms = Date.parse(`${bytes.toString('latin1', s, e)}T00:00:00Z`);
      if (Number.isNaN(ms)) throw this.notA('date', bytes, s, e, c);
      this.dateKey = key;
      this.dateDays = ms / DAY_MS;
    }
    return this.dateDays;
  }

  private notA(what: string, bytes: Buffer, s: number, e: number, c: number): MdgetError {
    const name = this.batch.schema[c]?.name ?? '?';
    return new MdgetError(
      'MDGET_SERVICE',
      `a Parquet output holds ${name} as a ${what}, and the service sent '${bytes.toString('latin1', s, Math.min(e, s + 40))}': write csv instead`,
    );
  }
}

const STRING = 0;
const DOUBLE = 1;
const INTEGER = 2;
const TIMESTAMP = 3;
const DATE = 4;
const KIND = {
  string: STRING,
  double: DOUBLE,
  int32: INTEGER,
  int64: INTEGER,
  timestamp: TIMESTAMP,
  date: DATE,
};

/** Two decimal digits at `at` (NaN when they are not digits, caught by the callers). */
function two(bytes: Buffer, at: number): number {
  const high = bytes[at]! - 48;
  const low = bytes[at + 1]! - 48;
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : Number.NaN;
}

/** `YYYY-MM-DD` at `at` as one number (NaN when not digits): a day is parsed once, not once a row. */
const dayKeyAt = (bytes: Buffer, at: number): number =>
  two(bytes, at) * 1_000_000 + two(bytes, at + 2) * 10_000 + two(bytes, at + 5) * 100 + two(bytes, at + 8);

/**
 * A decimal number: up to 15 digits are read as an integer and divided by a power of ten, which both hold
 * exactly, so the quotient is the correctly rounded double that parseFloat would give; others go through it.
 */
function readDouble(bytes: Buffer, s: number, e: number): number {
  let p = s;
  const negative = bytes[p] === MINUS;
  if (negative) p++;
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  let dot = false;
  let plain = p < e;
  for (; p < e; p++) {
    const ch = bytes[p]!;
    if (ch >= 48 && ch <= 57) {
      mantissa = mantissa * 10 + (ch - 48);
      digits++;
      if (dot) fraction++;
    } else if (ch === DOT && !dot) dot = true;
    else {
      plain = false;
      break;
    }
  }
  if (plain && digits > 0 && digits <= 15) {
    const value = fraction === 0 ? mantissa : mantissa / POW10[fraction]!;
    return negative ? -value : value;
  }
  const value = Number(bytes.toString('latin1', s, e));
  if (Number.isNaN(value))
    throw new MdgetError(
      'MDGET_SERVICE',
      `a Parquet output holds prices as numbers, and the service sent '${bytes.toString('latin1', s, Math.min(e, s + 40))}': write csv instead`,
    );
  return value;
}
