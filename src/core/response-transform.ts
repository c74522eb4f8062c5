import { Transform, type TransformCallback } from 'node:stream';
import { MdgetError } from './errors.js';
import { LineNormalizer } from './line-normalizer.js';
import { RECORD_SHAPES, type RecordKind, type RecordShape } from './record-shapes.js';
import { redactText, redactUrl } from './redact.js';

/** Output formats of the download commands (cli.md --format). */
export type OutputFormat = 'csv' | 'raw' | 'ndjson' | 'json';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['csv', 'raw', 'ndjson', 'json'];

/** State of one output shared by every response written to it: the csv header and JSON brackets go once. */
export interface OutputState {
  format: OutputFormat;
  header: boolean;
  headerWritten: boolean;
  jsonItems: number;
  /** A JSON body went through unchanged: the output is the service's document, nothing to close. */
  passedThrough: boolean;
}

export const newOutputState = (format: OutputFormat, header: boolean): OutputState => ({
  format,
  header,
  headerWritten: false,
  jsonItems: 0,
  passedThrough: false,
});

/** Bytes that close an output after its last response (the JSON array's bracket). */
export function closingBytes(state: OutputState): string {
  if (state.format !== 'json' || state.passedThrough) return '';
  return state.jsonItems === 0 ? '[]\n' : '\n]\n';
}

export interface ResponseTransformOptions {
  kind: RecordKind;
  state: OutputState;
  url: URL;
  /** Symbol or root of the request: added to ndjson/json objects whose records carry none. */
  symbol: string;
  trend: boolean;
  /** A JSON body (futuresoptions/json): never an in-band error when it starts with [ or { (spec §2.8). */
  jsonBody?: boolean;
  /** Count rows on the raw path too (costs a native scan per chunk). */
  countRows?: boolean;
  secrets?: readonly (string | undefined)[];
  /** Told the running count of body bytes after each chunk (progress). */
  onBytes?: (bytesIn: number) => void;
}

const HEAD_CAP = 64 * 1024;
/** Longest line accepted; records are well under 1 KiB. */
const MAX_LINE = 1024 * 1024;
const ERROR_RE = /error/i;

/**
 * One response body → the output format, checking it on the way (spec §1.4): the first non-blank line
 * decides between data, an in-band `Error` (MDGET_SERVICE) and an HTML page (MDGET_HTTP); bytes are held
 * back only until that line is seen. Later `error` lines and a last line without the endpoint's shape
 * (a cut connection) fail the transform, so the caller never commits the output.
 */
export class ResponseTransform extends Transform {
  /** Records written (csv/ndjson/json always; raw only with countRows). */
  rows = 0;
  /** Bytes received from the (decoded) body. */
  bytesIn = 0;
  private head: Buffer[] = [];
  private headSize = 0;
  private started = false;
  private passThroughJson = false;
  private readonly shape: RecordShape;
  private readonly normalizer = new LineNormalizer();
  private tail: Buffer = Buffer.alloc(0);
  private rawCarry: Buffer = Buffer.alloc(0);
  private fieldNames: readonly string[] | undefined;

  constructor(private readonly options: ResponseTransformOptions) {
    super({ readableHighWaterMark: 1024 * 1024, writableHighWaterMark: 1024 * 1024 });
    this.shape = RECORD_SHAPES[options.kind];
  }

  /** True when the body held no record (0 bytes, blank lines only): success with zero rows (spec §1.4). */
  get empty(): boolean {
    return !this.started;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.bytesIn += chunk.length;
      this.options.onBytes?.(this.bytesIn);
      if (!this.started) {
        this.head.push(chunk);
        this.headSize += chunk.length;
        const joined = Buffer.concat(this.head);
        const first = firstLine(joined);
        if (first === undefined && this.headSize < HEAD_CAP) {
          callback();
          return;
        }
        this.head = [];
        const text = first ?? joined.toString('utf8').trim();
        const json = this.options.jsonBody && /^[[{]/.test(text);
        if (first === undefined && !json) {
          this.fail(
            'MDGET_HTTP',
            `no line end in the first ${HEAD_CAP} bytes: not this endpoint's data (${redactUrl(this.options.url)})`,
          );
        }
        this.start(text);
        this.process(joined);
      } else {
        this.process(chunk);
      }
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (!this.started) {
        const joined = Buffer.concat(this.head);
        const text = joined.toString('utf8').trim();
        if (text === '') {
          callback();
          return;
        }
        this.start(text);
        this.process(joined);
      }
      this.finish();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private fail(code: 'MDGET_SERVICE' | 'MDGET_HTTP' | 'MDGET_NETWORK', message: string): never {
    throw new MdgetError(code, redactText(message, this.options.secrets ?? []));
  }

  private start(first: string): void {
    this.started = true;
    const where = redactUrl(this.options.url);
    const firstChar = first.trimStart()[0];
    if (this.options.jsonBody && (firstChar === '[' || firstChar === '{')) {
      this.passThroughJson = true;
      this.options.state.passedThrough = true;
      return;
    }
    if (ERROR_RE.test(first))
      this.fail('MDGET_SERVICE', `service error: ${first.trim().slice(0, 300)} (${where})`);
    if (firstChar === '<')
      this.fail('MDGET_HTTP', `server sent an HTML page instead of data (maintenance?): ${where}`);
    if (this.options.jsonBody)
      this.fail('MDGET_HTTP', `expected a JSON body, got '${first.slice(0, 80)}': ${where}`);
    const fieldCount = first.split(',').length;
    this.fieldNames = this.shape.header(fieldCount, this.options.trend);
  }

  private process(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.passThroughJson) {
      this.push(chunk);
      return;
    }
    const { format } = this.options.state;
    if (format === 'raw') {
      this.scanRaw(chunk);
      this.keepTail(chunk);
      if (this.options.countRows) this.rows += countLineEnds(chunk);
      this.push(chunk);
      return;
    }
    const lines = this.normalizer.push(chunk);
    this.checkLineLength(this.normalizer.pendingBytes);
    this.scanForErrors(lines);
    if (lines.length > 0) this.keepTail(lines);
    this.emitLines(lines);
  }

  /**
   * Raw bytes are scanned as complete lines: the partial last line of a chunk is carried (a copy, one
   * line long) so an `Error` line split across chunks is still seen whole.
   */
  private scanRaw(chunk: Buffer): void {
    const lastEnd = Math.max(chunk.lastIndexOf(10), chunk.lastIndexOf(13));
    if (lastEnd < 0) {
      this.rawCarry = Buffer.concat([this.rawCarry, chunk]);
      this.checkLineLength(this.rawCarry.length);
      return;
    }
    const firstEnd = lineEndIndex(chunk);
    this.checkLineLength(this.rawCarry.length + firstEnd);
    this.scanForErrors(Buffer.concat([this.rawCarry, chunk.subarray(0, firstEnd + 1)]));
    this.scanForErrors(chunk.subarray(firstEnd + 1, lastEnd + 1));
    this.rawCarry = Buffer.from(chunk.subarray(lastEnd + 1));
  }

  /** A line longer than any record (no line end for MAX_LINE bytes) is not this endpoint's data. */
  private checkLineLength(pending: number): void {
    if (pending > MAX_LINE) {
      this.fail(
        'MDGET_HTTP',
        `no line end in ${MAX_LINE} bytes: not this endpoint's data (${redactUrl(this.options.url)})`,
      );
    }
  }

  /** Checks the last line and writes a final unterminated record. */
  private finish(): void {
    if (this.passThroughJson) return;
    const format = this.options.state.format;
    if (format !== 'raw') {
      const rest = this.normalizer.end();
      this.checkLastLine(rest.length > 0 ? rest.toString('utf8').trimEnd() : lastCompleteLine(this.tail));
      this.emitLines(rest);
      return;
    }
    const text = this.tail.toString('utf8');
    const unterminated = !/[\r\n]$/.test(text);
    const last = unterminated ? (text.split(/\r\n|\r|\n/).pop() ?? '') : lastCompleteLine(this.tail);
    if (this.options.countRows && unterminated && last.trim() !== '') this.rows++;
    this.checkLastLine(last);
  }

  private checkLastLine(line: string): void {
    if (line.trim() === '') return;
    const where = redactUrl(this.options.url);
    if (ERROR_RE.test(line) && !this.shape.matches(line)) {
      this.fail('MDGET_SERVICE', `service error after data: ${line.trim().slice(0, 300)} (${where})`);
    }
    if (this.shape.checked && !this.shape.matches(line.trim())) {
      this.fail('MDGET_NETWORK', `truncated body: last line '${line.slice(0, 80)}' is incomplete (${where})`);
    }
  }

  /**
   * Looks for `error` in any case in complete lines (spec §1.4). A native scan for the bytes r/R, which
   * records hardly ever hold, keeps this cheap; only a hit costs a look at its line.
   */
  private scanForErrors(lines: Buffer): void {
    const line = findErrorLine(lines);
    if (line !== undefined && !this.shape.matches(line.trim())) {
      this.fail(
        'MDGET_SERVICE',
        `service error after data: ${line.trim().slice(0, 300)} (${redactUrl(this.options.url)})`,
      );
    }
  }

  private keepTail(bytes: Buffer): void {
    const keep = 4096;
    this.tail =
      bytes.length >= keep
        ? Buffer.from(bytes.subarray(bytes.length - keep))
        : lastBytes(this.tail, bytes, keep);
  }

  private emitLines(lines: Buffer): void {
    if (lines.length === 0) return;
    const { state } = this.options;
    if (state.format === 'csv') {
      if (state.header && !state.headerWritten && this.fieldNames)
        this.push(`${this.fieldNames.join(',')}\n`);
      state.headerWritten = true;
      this.rows = this.normalizer.lines;
      this.push(lines);
      return;
    }
    const text = lines.toString('utf8');
    let out = '';
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const json = recordToJson(line, this.fieldNames, this.shape, this.options.symbol);
      if (state.format === 'ndjson') out += `${json}\n`;
      else out += `${state.jsonItems === 0 ? '[\n' : ',\n'}${json}`;
      state.jsonItems++;
      this.rows++;
    }
    this.push(out);
  }
}

const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** One record as a JSON object: numbers keep their exact text, empty fields are null (spec §1.3). */
export function recordToJson(
  line: string,
  names: readonly string[] | undefined,
  shape: RecordShape,
  symbol: string,
): string {
  const fields = line.split(',');
  const keys = names && names.length === fields.length ? names : shape.header(fields.length, false);
  const parts: string[] = [];
  if (!shape.hasSymbol(fields.length)) parts.push(`"symbol":${JSON.stringify(symbol)}`);
  fields.forEach((field, i) => {
    const key = keys?.[i] ?? `field${i + 1}`;
    const value =
      field === '' ? 'null' : NUMBER_RE.test(field) && !isTextKey(key) ? field : JSON.stringify(field);
    parts.push(`${JSON.stringify(key)}:${value}`);
  });
  return `{${parts.join(',')}}`;
}

/** Columns that hold codes or names even when they look numeric. */
const isTextKey = (key: string) =>
  key === 'symbol' || key === 'contract' || key === 'session_code' || key === 'value' || key === 'underlying';

/** The first non-blank line of `bytes` if a line end follows it, else undefined. */
function firstLine(bytes: Buffer): string | undefined {
  let start = 0;
  for (;;) {
    let end = -1;
    for (const b of [10, 13]) {
      const e = bytes.indexOf(b, start);
      if (e >= 0 && (end < 0 || e < end)) end = e;
    }
    if (end < 0) return undefined;
    const line = bytes.subarray(start, end).toString('utf8');
    if (line.trim() !== '') return line.trim();
    start = end + 1;
  }
}

function lastCompleteLine(tail: Buffer): string {
  const lines = tail.toString('utf8').split(/\r\n|\r|\n/);
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim() !== '') return lines[i]!;
  return '';
}

function lastBytes(previous: Buffer, next: Buffer, keep: number): Buffer {
  const joined = Buffer.concat([previous, next]);
  return joined.length > keep ? Buffer.from(joined.subarray(joined.length - keep)) : joined;
}

function countLineEnds(chunk: Buffer): number {
  let count = 0;
  let at = chunk.indexOf(10);
  while (at >= 0) {
    count++;
    at = chunk.indexOf(10, at + 1);
  }
  return count;
}

const ERROR_BYTES = [0x65, 0x72, 0x72, 0x6f, 0x72]; // "error"

/** The first line of `bytes` holding `error` in any case, or undefined. */
export function findErrorLine(bytes: Buffer): string | undefined {
  for (const r of [0x72, 0x52]) {
    for (let p = bytes.indexOf(r); p >= 0; p = bytes.indexOf(r, p + 1)) {
      // an r is the 2nd, 3rd or 5th letter of "error"
      for (const start of [p - 1, p - 2, p - 4]) {
        if (start < 0 || start + 5 > bytes.length) continue;
        if (ERROR_BYTES.every((c, i) => (bytes[start + i]! | 0x20) === c)) return lineAround(bytes, start);
      }
    }
  }
  return undefined;
}

function lineAround(bytes: Buffer, at: number): string {
  const from = Math.max(bytes.lastIndexOf(10, at), bytes.lastIndexOf(13, at)) + 1;
  const rest = bytes.subarray(at);
  const end = lineEndIndex(rest);
  return bytes.subarray(from, end < 0 ? bytes.length : at + end).toString('utf8');
}

/** Index of the first CR or LF, or -1. */
function lineEndIndex(bytes: Buffer): number {
  const lf = bytes.indexOf(10);
  const cr = bytes.indexOf(13);
  return lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
}
