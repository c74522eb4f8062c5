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
}

export const newOutputState = (format: OutputFormat, header: boolean): OutputState => ({
  format,
  header,
  headerWritten: false,
  jsonItems: 0,
});

/** Bytes that close an output after its last response (the JSON array's bracket). */
export function closingBytes(state: OutputState): string {
  if (state.format !== 'json') return '';
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
        this.start(first ?? joined.toString('utf8').trim());
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
    this.scanForErrors(chunk);
    const { format } = this.options.state;
    if (format === 'raw') {
      this.keepTail(chunk);
      if (this.options.countRows) this.rows += countLineEnds(chunk);
      this.push(chunk);
      return;
    }
    const lines = this.normalizer.push(chunk);
    if (lines.length > 0) this.keepTail(lines);
    this.emitLines(lines);
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

  /** A native substring scan per chunk; only a hit costs a look at its line. */
  private scanForErrors(chunk: Buffer): void {
    for (const needle of ['rror', 'RROR']) {
      const at = chunk.indexOf(needle);
      if (at < 0) continue;
      const start = Math.max(chunk.lastIndexOf(10, at), chunk.lastIndexOf(13, at)) + 1;
      let end = chunk.length;
      for (const b of [10, 13]) {
        const e = chunk.indexOf(b, at);
        if (e >= 0 && e < end) end = e;
      }
      const line = chunk.subarray(start, end).toString('utf8');
      if (ERROR_RE.test(line) && !this.shape.matches(line.trim())) {
        this.fail(
          'MDGET_SERVICE',
          `service error after data: ${line.trim().slice(0, 300)} (${redactUrl(this.options.url)})`,
        );
      }
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
