import { Transform, type TransformCallback } from 'node:stream';
import { RECORD_SHAPES, type RecordKind } from '../model/record-shapes.js';
import { redactUrl } from '../model/redact.js';
import type { SeriesRequest, SeriesWindow } from '../plan/series.js';

export type { CutVerdict } from './hold-back.js';

import { releaseChunk } from '../buffers/chunk-pool.js';
import { type CheckContext, checkFirstLine, checkLastLine, checkLaterLines, fail } from './body-checks.js';
import { BodyHead } from './body-head.js';
import type { KeyOf } from './edge-filter.js';
import { type CutVerdict, holdBack } from './hold-back.js';
import { LineCarry } from './line-carry.js';
import { fieldKey, lastLineBefore, lineEndAfter, trailingGroupStart } from './line-regions.js';
import type { OutputState } from './output-state.js';
import type { RowRewrite } from './row-rewrite.js';
import { LineCounter, RowWriter } from './row-writer.js';
import { allBeforeStart, type WindowEdges, windowEdges } from './window-edges.js';

export type { OutputFormat, OutputState } from './output-state.js';
export { closingBytes, newOutputState, recordToJson } from './output-state.js';

export interface ResponseTransformOptions {
  kind: RecordKind;
  state: OutputState;
  url: URL;
  /** Symbol or root of the request: the csv's `symbol` column where the service's lines carry none. */
  symbol: string;
  trend: boolean;
  /** A JSON body (futuresoptions/json): never an in-band error when it starts with [ or {. */
  jsonBody?: boolean;
  secrets?: readonly (string | undefined)[];
  /** Told the running count of body bytes after each chunk (progress). */
  onBytes?: (bytesIn: number) => void;
  /** A time-series request: rows outside its window are dropped, and a cut is detected. */
  series?: SeriesRequest;
  /** The dates of an events request, end exclusive: its rows outside them are dropped. */
  dates?: SeriesWindow;
  /** The time key a continuation starts from: rows the server sends again from before it are dropped. */
  continuationFrom?: string;
  /** Whether a response of that many rows may have been cut; absent: never (the user's --maxrecords). */
  verdict?: (rows: number) => CutVerdict;
  /** Timestamps to convert (--utc, --tz), for csv, ndjson and json; raw is never rewritten. */
  timeZone?: RowRewrite['timeZone'];
  /** Note the first field of every line (a list request's symbols: which ones the service answered). */
  noteSymbols?: boolean;
}

const EMPTY = Buffer.alloc(0);

/**
 * One response body → the output format, checked on the way (body-checks.ts). Bytes are held back only
 * until the first line is seen and, for a series whose cut can be detected, the rows of the last key
 * (second, minute or day) until the body ends: a cut response may hold only part of them, so they are
 * dropped and fetched again by the continuation that starts at that key (docs/completeness.md). The
 * stages: the first line decides what the body is; the lines are split, the last key group held back
 * (this class); the window's edges kept (edge-filter.ts); the rows written in the output's format
 * (row-writer.ts).
 */
export class ResponseTransform extends Transform {
  /** Rows the service sent: what a server cap counts. */
  receivedRows = 0;
  /** Bytes received from the (decoded) body, and rows' bytes passed on to the output. */
  bytesIn = 0;
  bytesOut = 0;
  /** 'cut' or 'probe': the rows from `heldKey` on were dropped and must be fetched by a continuation. */
  verdict: CutVerdict = 'complete';
  heldKey: string | undefined;
  /** The key of the last row received (a probe's answer: did the data go on past the held key?). */
  lastKey: string | undefined;
  /**
   * A continuation that came back full but added nothing past its start, the rest being rows from before
   * it: the server answers from an earlier time, and another try may do no better.
   */
  stalled = false;
  /** The first field of every line, when noted (noteSymbols). */
  readonly symbols = new Set<string>();
  private readonly head: BodyHead;
  private started = false;
  private passThroughJson = false;
  private readonly check: CheckContext;
  private lines: LineCarry | undefined;
  /** A JSON body seen whole only at its end. */
  private pendingJson: Buffer = EMPTY;
  private holding = false;
  private lastLine = '';
  /** The key of the last row kept: whether a continuation went past where it started. */
  private lastKeptKey: string | undefined;
  private writer: RowWriter | undefined;
  private edges: WindowEdges | undefined;
  private received: LineCounter | undefined;

  constructor(private readonly options: ResponseTransformOptions) {
    super({ readableHighWaterMark: 256 * 1024, writableHighWaterMark: 256 * 1024 });
    this.check = { url: options.url, shape: RECORD_SHAPES[options.kind], secrets: options.secrets ?? [] };
    this.head = new BodyHead(this.check, options.jsonBody ?? false);
  }

  /** True when the body held no record (0 bytes, blank lines only): success with zero rows. */
  get empty(): boolean {
    return !this.started;
  }

  /** Rows written to the output. */
  get rows(): number {
    return this.writer?.rows ?? 0;
  }

  /** Rows the server sent again from before a continuation's start, dropped. */
  get repeatedRows(): number {
    return this.edges?.filter.repeated ?? 0;
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
      const head = this.head.take(chunk);
      if (head) {
        this.begin(head.first);
        this.consume(head.bytes);
      }
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (!this.started) {
        const head = this.head.end();
        if (!head) {
          callback();
          return;
        }
        this.begin(head.first);
        if (this.passThroughJson) this.pendingJson = head.bytes;
        else this.lines?.hold(head.bytes);
      }
      this.finish();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  /** The first line says what the body is: an error, a JSON document, or records of some shape. */
  private begin(first: string): void {
    this.started = true;
    const line = checkFirstLine(first, this.options.jsonBody ?? false, this.check);
    if (line.kind === 'json') {
      this.passThroughJson = true;
      this.options.state.passedThrough = true;
      return;
    }
    const { kind, state, symbol, trend, series, timeZone, continuationFrom, dates } = this.options;
    this.writer = new RowWriter({
      kind,
      state,
      symbol,
      trend,
      fieldCount: line.fieldCount,
      check: this.check,
      ...(timeZone ? { timeZone } : {}),
    });
    this.received = new LineCounter(this.writer);
    this.edges = windowEdges(kind, line.fieldCount, series, dates, continuationFrom, this.keyAt);
    this.holding = series !== undefined && this.options.verdict !== undefined;
    const groupOf = (bytes: Buffer, end: number) =>
      trailingGroupStart(bytes, end, (start, stop) => this.keyAt(bytes, start, stop));
    this.lines = new LineCarry(this.check, this.holding ? groupOf : undefined);
  }

  /** The time key of the line [start, end) of `bytes`. */
  private readonly keyAt: KeyOf = (bytes, start, end) =>
    this.edges ? fieldKey(bytes, start, end, this.edges.keyIndex, this.edges.keyLength) : undefined;

  /** The complete lines of the carried bytes and `bytes`, but (when holding) the trailing key group. */
  private consume(bytes: Buffer): void {
    if (this.passThroughJson) this.push(bytes);
    else (this.lines as LineCarry).take(bytes, (region) => this.process(region, false));
  }

  /** The body's end: the held key group is written, or dropped for a continuation to fetch it whole. */
  private finish(): void {
    if (this.passThroughJson) {
      // a JSON body with no line end in its first 64 KiB was only seen whole here
      if (this.pendingJson.length > 0) this.push(this.pendingJson);
      return;
    }
    const rest = (this.lines as LineCarry).rest();
    const last = lastLineBefore(rest, rest.length);
    checkLastLine(last ? rest.toString('latin1', last.start, last.end) : this.lastLine, this.check);
    if (this.holding && (this.onlyBeforeStart(rest, last) || (last && this.holdsBack(rest, last)))) return;
    this.process(rest, true);
    if (!this.holding) this.onlyBeforeStart(EMPTY, undefined);
  }

  /**
   * A response whose rows all lie before the request's start is the service ignoring `start`
   * (docs/completeness.md#the-window-is-the-window): nothing of it is written. A continuation is tried
   * again (run/continuations.ts), a window's own request fails here.
   */
  private onlyBeforeStart(rest: Buffer, last: { start: number; end: number } | undefined): boolean {
    if (!this.edges) return false;
    // rows before the start come first ascending, last descending: the rest's other end shows the rest
    const firstEnd = lineEndAfter(rest);
    const desc = this.options.series?.order === 'desc';
    const line = desc ? { start: 0, end: firstEnd < 0 ? rest.length : firstEnd } : last;
    const key = line && this.keyAt(rest, line.start, line.end);
    if (!allBeforeStart(this.edges, key)) return false;
    if (this.options.continuationFrom !== undefined) {
      this.stalled = true;
      return true;
    }
    return fail(
      this.check,
      'MDGET_SERVICE',
      `the service answered ${redactUrl(this.options.url)} with rows from before its start (${this.edges.startKey}) only: it ignores start, so nothing of it is written`,
    );
  }

  /** Whether the key group at the end (`rest`, last line `last`) is held back; see hold-back.ts. */
  private holdsBack(rest: Buffer, last: { start: number; end: number }): boolean {
    const firstEnd = lineEndAfter(rest);
    const group = {
      before: this.receivedRows,
      rows:
        (this.writer as RowWriter).countLineEnds(rest) +
        (/[\r\n]$/.test(rest.toString('latin1', rest.length - 1)) ? 0 : 1),
      key: this.keyAt(rest, 0, firstEnd < 0 ? rest.length : firstEnd),
      lastKey: this.keyAt(rest, last.start, last.end),
      lastKeptKey: this.lastKeptKey,
      repeated: this.repeatedRows,
    };
    const { series, verdict, continuationFrom } = this.options;
    const decision = holdBack(group, series, verdict, continuationFrom);
    switch (decision.kind) {
      case 'write':
        return false;
      case 'stalled':
        // nothing more of it is written: the run tries the continuation again, or fails
        this.stalled = true;
        return true;
      case 'continue':
        this.verdict = decision.verdict;
        this.heldKey = group.key;
        this.lastKey = group.lastKey;
        this.receivedRows = group.before + group.rows;
        return true;
      case 'one-key':
        return fail(
          this.check,
          'MDGET_SERVICE',
          `cannot complete ${redactUrl(this.options.url)}: all ${decision.total} rows have the time ${group.key ?? '?'} and the service returns at most that many per request`,
        );
    }
  }

  /** Checks, counts and filters complete lines (all of them when `final`), then writes them. */
  private process(region: Buffer, final: boolean): void {
    if (region.length === 0) return;
    checkLaterLines(region, this.check);
    if (this.options.noteSymbols) {
      for (const line of region.toString('latin1').split(/[\r\n]+/)) {
        const symbol = line.split(',', 1)[0]?.trim();
        if (symbol) this.symbols.add(symbol.toUpperCase());
      }
    }
    const last = lastLineBefore(region, region.length);
    if (last) {
      this.lastLine = region.toString('latin1', last.start, last.end);
      this.lastKey = this.keyAt(region, last.start, last.end) ?? this.lastKey;
    }
    const writer = this.writer as RowWriter;
    const kept = this.edges ? this.edges.filter.keep(region) : region;
    if (kept.length > 0) {
      const keptLast = kept === region ? last : lastLineBefore(kept, kept.length);
      if (keptLast) this.lastKeptKey = this.keyAt(kept, keptLast.start, keptLast.end) ?? this.lastKeptKey;
    }
    const push = (chunk: Buffer | string) => {
      this.bytesOut += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      this.push(chunk);
    };
    // Unfiltered (nearly always), the rows written are the rows received: count them once.
    if (kept === region) this.receivedRows += writer.write(region, final, push);
    else {
      this.receivedRows += (this.received as LineCounter).count(region, final);
      writer.write(kept, final, push);
    }
  }
}
