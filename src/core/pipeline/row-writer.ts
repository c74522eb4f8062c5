import { copyChunk, releaseChunk } from '../buffers/chunk-pool.js';
import type { RecordKind } from '../model/record-shapes.js';
import { adaptLines, RECORD_SHAPES } from '../model/record-shapes.js';
import type { CheckContext } from './body-checks.js';
import { jsonRowsFor } from './json-rows.js';
import { newLineNormalizer } from './line-normalizer.js';
import { type OutputState, recordToJson, writtenColumns } from './output-state.js';
import { type RowRewrite, rowRewriter } from './row-rewrite.js';

/** What a writer of one response needs: the output it adds to and the response's first line. */
export interface RowWriterOptions {
  kind: RecordKind;
  state: OutputState;
  /** Symbol or root of the request: the csv's `symbol` column where the service's lines carry none. */
  symbol: string;
  trend: boolean;
  /** Fields of the response's first line: which shape its lines have. */
  fieldCount: number;
  /** Timestamps to convert (--utc, --tz), for csv, ndjson and json; raw is never rewritten. */
  timeZone?: RowRewrite['timeZone'];
  check: CheckContext;
}

/**
 * The service's lines of one response in the output's format: raw as they came; csv with the output's
 * columns (a symbol column added, an empty open interest kept), its header once, line ends made LF;
 * parquet as those csv lines without a header, for the Parquet sink to type (sink/parquet/); ndjson and
 * json as records. Counts the rows it writes.
 */
export class RowWriter {
  /** Rows written to the output. */
  rows = 0;
  private readonly normalizer = newLineNormalizer();
  private readonly lineEnds = new LineCounter(this.normalizer);
  private readonly fieldNames: readonly string[] | undefined;
  private readonly suffix: string;
  private readonly rewrite: ((lines: Buffer) => Buffer) | undefined;

  constructor(private readonly options: RowWriterOptions) {
    const { kind, state, symbol, trend, fieldCount } = options;
    const adaptation = adaptLines(kind, fieldCount, state.columns, symbol);
    this.fieldNames = adaptation ? writtenColumns(state) : RECORD_SHAPES[kind].header(fieldCount, trend);
    this.rewrite =
      adaptation && state.format !== 'raw'
        ? rowRewriter(
            {
              ...(options.timeZone ? { timeZone: options.timeZone } : {}),
              ...(state.pick ? { pick: state.pick } : {}),
            },
            state.columns,
          )
        : undefined;
    this.normalizer.setPrefix(adaptation?.prefix ?? '');
    this.suffix = adaptation?.suffix ?? '';
  }

  /** Line ends in `bytes` (CR LF counted once): the service rows a region holds. */
  countLineEnds(bytes: Buffer): number {
    return this.normalizer.countLineEnds(bytes);
  }

  /**
   * Writes complete lines (all of them when `final`: the body's end) through `push`; returns how many
   * lines they held (blank ones too for raw).
   */
  write(lines: Buffer, final: boolean, push: (chunk: Buffer | string) => void): number {
    const { state } = this.options;
    if (state.format === 'raw') {
      const count = this.lineEnds.count(lines, final);
      if (lines.length === 0) return count;
      this.rows += count;
      state.headerWritten = true;
      // A copy: the chunk the lines came in goes back to the pool at once (chunk-pool.ts).
      push(copyChunk(lines));
      return count;
    }
    const before = this.normalizer.lines;
    const csvLines = state.format === 'csv' || state.format === 'parquet';
    // csv goes on downstream; JSON is converted right here, from the normalizer's own memory
    let out = csvLines ? this.normalizer.push(lines) : this.normalizer.pushView(lines);
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
    if (csvLines) {
      if (state.format === 'csv' && state.header && !state.headerWritten && this.fieldNames)
        push(`${this.fieldNames.join(',')}\n`);
      state.headerWritten = true;
      push(out);
      return count;
    }
    state.headerWritten = true;
    push(this.json(out));
    return count;
  }

  /** Normalized csv lines as ndjson lines or json array items. */
  private json(lines: Buffer): Buffer {
    const { state, check } = this.options;
    const names = this.fieldNames;
    const { bytes, records } = jsonRowsFor(names).convert(
      lines,
      state.format === 'json' ? 'json' : 'ndjson',
      (line) => recordToJson(line, names, check.shape),
    );
    // every json item starts with ",\n" (json-rows.ts); the array's first with "[\n"
    if (state.format === 'json' && state.jsonItems === 0 && records > 0) bytes[0] = 0x5b;
    state.jsonItems += records;
    return bytes;
  }
}

/** Counts the lines of consecutive regions: a CR LF split between two regions counts once. */
export class LineCounter {
  private endedWithCr = false;
  constructor(private readonly normalizer: { countLineEnds(bytes: Buffer): number }) {}

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
