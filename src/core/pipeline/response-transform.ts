import { Transform, type TransformCallback } from 'node:stream';
import { adaptLines, RECORD_SHAPES, type RecordKind } from '../model/record-shapes.js';
import { redactUrl } from '../model/redact.js';
import { formatKey, keyLength, type SeriesRequest, timeFieldIndex } from '../plan/series.js';
import type { CutVerdict } from '../run/cut-tracker.js';
import {
  type CheckContext,
  checkFirstLine,
  checkLastLine,
  checkLaterLines,
  checkLineLength,
  fail,
  firstLine,
} from './body-checks.js';
import { copyChunk, releaseChunk } from './chunk-pool.js';
import { jsonRowsFor } from './json-rows.js';
import { LineNormalizer } from './line-normalizer.js';
import {
  completeLinesEnd,
  fieldKey,
  lastLineBefore,
  lineEndAfter,
  trailingGroupStart,
} from './line-regions.js';
import { type OutputState, recordToJson, writtenColumns } from './output-state.js';
import { type RowRewrite, rowRewriter } from './row-rewrite.js';

export type { OutputFormat, OutputState } from './output-state.js';
export { closingBytes, newOutputState, recordToJson } from './output-state.js';

export interface ResponseTransformOptions {
  kind: RecordKind;
  state: OutputState;
  url: URL;
  /** Symbol or root of the request: the csv's `symbol` column where the service's lines carry none. */
  symbol: string;
  trend: boolean;
  /** A JSON body (futuresoptions/json): never an in-band error when it starts with [ or { (spec §2.8). */
  jsonBody?: boolean;
  secrets?: readonly (string | undefined)[];
  /** Told the running count of body bytes after each chunk (progress). */
  onBytes?: (bytesIn: number) => void;
  /** A time-series request: rows past its window's end are dropped, and a cut is detected. */
  series?: SeriesRequest;
  /** Whether a response of that many rows may have been cut; absent: never (the user's --maxrecords). */
  verdict?: (rows: number) => CutVerdict;
  /** Timestamps to convert (--utc, --tz), for csv, ndjson and json; raw is never rewritten. */
  timeZone?: RowRewrite['timeZone'];
}

const HEAD_CAP = 64 * 1024;
const EMPTY = Buffer.alloc(0);

/**
 * One response body → the output format, checking it on the way (body-checks.ts). Bytes are held back
 * only until the first line is seen and, for a series whose cut can be detected, the rows of the last key
 * (second, minute or day) until the body ends: a cut response may hold only part of them, so they are
 * dropped and fetched again by the continuation that starts at that key (issue 8). Rows at or past the
 * window's end are dropped, so windows never overlap whether the service's `end` is exclusive (ticks,
 * minutes) or inclusive (EOD, spec §5).
 */
export class ResponseTransform extends Transform {
  /** Rows written to the output. */
  rows = 0;
  /** Rows the service sent: what a server cap counts. */
  receivedRows = 0;
  /** Bytes received from the (decoded) body. */
  bytesIn = 0;
  /** 'cut' or 'probe': the rows from `heldKey` on were dropped and must be fetched by a continuation. */
  verdict: CutVerdict = 'complete';
  heldKey: string | undefined;
  /** The key of the last row received (a probe's answer: did the data go on past the held key?). */
  lastKey: string | undefined;
  private head: Buffer[] = [];
  private headSize = 0;
  private started = false;
  private passThroughJson = false;
  private readonly check: CheckContext;
  private readonly normalizer = new LineNormalizer();
  private pending: Buffer = EMPTY;
  private suffix = '';
  private fieldNames: readonly string[] | undefined;
  private keyIndex = 0;
  private endKey: string | undefined;
  private holding = false;
  private pastEnd = false;
  private lastLine = '';
  private rewrite: ((lines: Buffer) => Buffer) | undefined;
  private readonly received = new LineCounter(this.normalizer);
  private readonly written = new LineCounter(this.normalizer);

  constructor(private readonly options: ResponseTransformOptions) {
    super({ readableHighWaterMark: 256 * 1024, writableHighWaterMark: 256 * 1024 });
    this.check = { url: options.url, shape: RECORD_SHAPES[options.kind], secrets: options.secrets ?? [] };
  }

  /** True when the body held no record (0 bytes, blank lines only): success with zero rows (spec §1.4). */
  get empty(): boolean {
    return !this.started;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.bytesIn += chunk.length;
      this.options.onBytes?.(this.bytesIn);
      if (this.started) {
        this.consume(chunk);
        // done with it (what goes on is a copy, converted or not): a pooled chunk goes back
        if (!this.passThroughJson) releaseChunk(chunk);
        callback();
        return;
      }
      this.head.push(chunk);
      this.headSize += chunk.length;
      const joined = Buffer.concat(this.head);
      const first = firstLine(joined);
      if (first === undefined && this.headSize < HEAD_CAP) {
        callback();
        return;
      }
      const head = this.head;
      this.head = [];
      const text = first ?? joined.toString('utf8').trim();
      if (first === undefined && !(this.options.jsonBody && /^[[{]/.test(text))) {
        fail(
          this.check,
          'MDGET_HTTP',
          `no line end in the first ${HEAD_CAP} bytes: not this endpoint's data (${redactUrl(this.options.url)})`,
        );
      }
      this.begin(text);
      this.consume(joined);
      for (const piece of head) releaseChunk(piece); // copied into `joined`
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (!this.started) {
        const joined = Buffer.concat(this.head);
        if (joined.toString('utf8').trim() === '') {
          callback();
          return;
        }
        this.begin(joined.toString('utf8').trim());
        this.pending = joined;
      }
      this.finish();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private begin(first: string): void {
    this.started = true;
    const line = checkFirstLine(first, this.options.jsonBody ?? false, this.check);
    if (line.kind === 'json') {
      this.passThroughJson = true;
      this.options.state.passedThrough = true;
      return;
    }
    const { kind, state, symbol, trend, series } = this.options;
    const adaptation = adaptLines(kind, line.fieldCount, state.columns, symbol);
    this.fieldNames = adaptation ? writtenColumns(state) : this.check.shape.header(line.fieldCount, trend);
    if (adaptation && state.format !== 'raw') {
      this.rewrite = rowRewriter(
        {
          ...(this.options.timeZone ? { timeZone: this.options.timeZone } : {}),
          ...(state.pick ? { pick: state.pick } : {}),
        },
        state.columns,
      );
    }
    this.normalizer.setPrefix(adaptation?.prefix ?? '');
    this.suffix = adaptation?.suffix ?? '';
    if (series) {
      this.keyIndex = timeFieldIndex(kind, line.fieldCount);
      if (series.window.end && series.filterEnd)
        this.endKey = formatKey(series.window.end, series.resolution);
      this.holding = this.options.verdict !== undefined;
    }
  }

  /** The time key of the line [start, end) of `bytes`. */
  private readonly keyAt = (bytes: Buffer, start: number, end: number): string | undefined =>
    this.options.series
      ? fieldKey(bytes, start, end, this.keyIndex, keyLength(this.options.series.resolution))
      : undefined;

  private consume(bytes: Buffer): void {
    if (this.passThroughJson) {
      this.push(bytes);
      return;
    }
    // The carried bytes (a partial line, held rows) are small: join them with the chunk's first line only,
    // so a chunk is not copied whole; the rest of it is cut where its trailing key group starts.
    const firstEnd = this.pending.length > 0 ? lineEndAfter(bytes) : 0;
    if (firstEnd > 0 && firstEnd < bytes.length) {
      const rest = bytes.subarray(firstEnd);
      const end = completeLinesEnd(rest);
      const cut =
        end === 0 ? 0 : this.holding ? trailingGroupStart(rest, end, (s, e) => this.keyAt(rest, s, e)) : end;
      if (cut > 0) {
        this.process(Buffer.concat([this.pending, bytes.subarray(0, firstEnd)]), false);
        checkLineLength(rest.length - end, this.check);
        this.pending = Buffer.from(rest.subarray(cut));
        this.process(rest.subarray(0, cut), false);
        return;
      }
    }
    const buffer = this.pending.length > 0 ? Buffer.concat([this.pending, bytes]) : bytes;
    const end = completeLinesEnd(buffer);
    checkLineLength(buffer.length - end, this.check);
    if (end === 0) {
      // a copy of the chunk itself: it goes back to the pool once consumed
      this.pending = buffer === bytes ? Buffer.from(bytes) : buffer;
      return;
    }
    const cut = this.holding ? trailingGroupStart(buffer, end, (s, e) => this.keyAt(buffer, s, e)) : end;
    // a copy: the held rows are small, the chunk they came in may be a MiB
    this.pending = Buffer.from(buffer.subarray(cut));
    this.process(buffer.subarray(0, cut), false);
  }

  private finish(): void {
    if (this.passThroughJson) {
      // a JSON body with no line end in its first 64 KiB was only seen whole here
      if (this.pending.length > 0) this.push(this.pending);
      this.pending = EMPTY;
      return;
    }
    const rest = this.pending;
    this.pending = EMPTY;
    const last = lastLineBefore(rest, rest.length);
    checkLastLine(last ? rest.toString('latin1', last.start, last.end) : this.lastLine, this.check);
    if (this.holding && last) {
      const heldRows =
        this.normalizer.countLineEnds(rest) +
        (/[\r\n]$/.test(rest.toString('latin1', rest.length - 1)) ? 0 : 1);
      const total = this.receivedRows + heldRows;
      const verdict = this.options.verdict?.(total) ?? 'complete';
      if (verdict !== 'complete') {
        const firstEnd = lineEndAfter(rest);
        const key = this.keyAt(rest, 0, firstEnd < 0 ? rest.length : firstEnd);
        if (heldRows < total && key !== undefined) {
          this.verdict = verdict;
          this.heldKey = key;
          this.lastKey = this.keyAt(rest, last.start, last.end);
          this.receivedRows = total;
          return;
        }
        // Every row shares one key: no continuation can start later than this one.
        if (verdict === 'cut') {
          fail(
            this.check,
            'MDGET_SERVICE',
            `cannot complete ${redactUrl(this.options.url)}: all ${total} rows have the time ${key ?? '?'} and the service returns at most that many per request`,
          );
        }
      }
    }
    this.process(rest, true);
  }

  /** Checks, counts and filters complete lines (all of them when `final`), then writes them. */
  private process(region: Buffer, final: boolean): void {
    if (region.length === 0) return;
    checkLaterLines(region, this.check);
    const last = lastLineBefore(region, region.length);
    if (last) {
      this.lastLine = region.toString('latin1', last.start, last.end);
      this.lastKey = this.keyAt(region, last.start, last.end) ?? this.lastKey;
    }
    const kept = this.endKey === undefined ? region : this.beforeEnd(region);
    // Unfiltered (nearly always), the rows written are the rows received: count them once.
    if (kept === region) this.receivedRows += this.writeLines(region, final);
    else {
      this.receivedRows += this.received.count(region, final);
      this.writeLines(kept, final);
    }
  }

  /**
   * The lines before the window's end. Ascending, rows past it come last; descending (newest first),
   * they come first. Only the edge lines of a region are read, unless one of them is past the end.
   */
  private beforeEnd(region: Buffer): Buffer {
    const endKey = this.endKey as string;
    const past = (start: number, end: number) => {
      const key = this.keyAt(region, start, end);
      return key !== undefined && key >= endKey;
    };
    if (this.options.series?.order === 'desc') {
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

  /** Writes complete lines in the output format; returns how many lines they held (blank ones too for raw). */
  private writeLines(lines: Buffer, final: boolean): number {
    const { state } = this.options;
    if (state.format === 'raw') {
      const count = this.written.count(lines, final);
      if (lines.length === 0) return count;
      this.rows += count;
      state.headerWritten = true;
      // A copy: the chunk the lines came in goes back to the pool (or, a socket read passed on as it is,
      // dies young) at once. Parts of it handed on held it until written: the 1 GB day sent without gzip
      // peaked 30-40 MiB higher on Node 24 that way, for 4% less time with gzip (bench/README.md).
      this.push(copyChunk(lines));
      return count;
    }
    const before = this.normalizer.lines;
    // csv goes on downstream; JSON is converted right here, from the normalizer's own memory
    let out = state.format === 'csv' ? this.normalizer.push(lines) : this.normalizer.pushView(lines);
    // a copy replaces csv's pooled chunk: give that back at once (chunk-pool.ts)
    const replace = (copy: Buffer) => {
      if (copy !== out) releaseChunk(out);
      out = copy;
    };
    if (final) replace(Buffer.concat([out, this.normalizer.end()]));
    const count = this.normalizer.lines - before;
    if (out.length === 0) return count;
    this.rows += count;
    if (this.suffix) replace(Buffer.from(out.toString('utf8').replaceAll('\n', `${this.suffix}\n`)));
    if (this.rewrite) replace(this.rewrite(out));
    if (state.format === 'csv') {
      if (state.header && !state.headerWritten && this.fieldNames)
        this.push(`${this.fieldNames.join(',')}\n`);
      state.headerWritten = true;
      this.push(out);
      return count;
    }
    state.headerWritten = true;
    this.push(this.json(out));
    return count;
  }

  /** Normalized csv lines as ndjson lines or json array items. */
  private json(lines: Buffer): Buffer {
    const { state } = this.options;
    const names = this.fieldNames;
    const { bytes, records } = jsonRowsFor(names).convert(
      lines,
      state.format === 'json' ? 'json' : 'ndjson',
      (line) => recordToJson(line, names, this.check.shape),
    );
    // every json item starts with ",\n" (json-rows.ts); the array's first with "[\n"
    if (state.format === 'json' && state.jsonItems === 0 && records > 0) bytes[0] = 0x5b;
    state.jsonItems += records;
    return bytes;
  }
}

/** Counts the lines of consecutive regions: a CR LF split between two regions counts once. */
class LineCounter {
  private endedWithCr = false;
  constructor(private readonly normalizer: LineNormalizer) {}

  /** Line ends in `region`, plus its unterminated last line when it is the body's end. */
  count(region: Buffer, final: boolean): number {
    if (region.length === 0) return 0;
    const last = region[region.length - 1];
    const splitCrLf = this.endedWithCr && region[0] === 10 ? 1 : 0;
    this.endedWithCr = last === 13;
    const unterminated = final && last !== 10 && last !== 13;
    return this.normalizer.countLineEnds(region) - splitCrLf + (unterminated ? 1 : 0);
  }
}
