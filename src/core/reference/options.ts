import type { Validators } from '../http/open-body.js';
import { usageError } from '../model/errors.js';
import { formatOfName, PARQUET_COMPRESSIONS, type ParquetCompression } from '../model/formats.js';
import { type NameOf, optionNames } from '../plan/names.js';
import { checkOutputPath } from '../plan/templates.js';
import type { ProgressEvent } from '../run/run-types.js';
import type { Transport } from '../run/scheduler.js';
import type { Exchange } from './exchanges.js';
import type { ExchangesFormat } from './exchanges-format.js';
import type { ProfileTable } from './profile-tables.js';
import type { SqliteCounts } from './sqlite-writer.js';
import type { TableStreamFormat } from './table-writers.js';

/** Output formats of `exchanges`: the typed list rendered, or `xml`, the service's (decoded) bytes unchanged. */
export type ExchangesOutputFormat = ExchangesFormat | 'xml';

/** Output formats of `instruments`: the profile tables as a stream, a SQLite database file, or Parquet. */
export type InstrumentsFormat = TableStreamFormat | 'sqlite' | 'parquet';

/** Where a reference command writes: a file written atomically (absent: the run's stream); `force` overwrites. */
export interface ReferenceOutputOptions {
  output?: string;
  force: boolean;
}

/** Options of `runExchanges`: `find` keeps exchanges whose id or description contains it (any case). */
export interface ExchangesOptions extends ReferenceOutputOptions {
  format: ExchangesOutputFormat;
  find?: string;
}

/** How profile tables are written: `table` picks the one table `csv` or `parquet` writes (default `instruments`). */
export interface TablesOptions extends ReferenceOutputOptions {
  format: InstrumentsFormat;
  table?: ProfileTable;
  /** How `parquet` compresses its pages (default zstd). */
  compression?: ParquetCompression;
}

/** Options of `runInstruments`: the exchange by id or description (it must designate exactly one). */
export interface InstrumentsOptions extends TablesOptions {
  exchange: string;
}

/** Options of `runCapture`: a capture file's path, or a stream of one (spooled to a temporary file). */
export interface CaptureRunOptions extends TablesOptions {
  capture: string | NodeJS.ReadableStream;
}

/** What writing needs: the run's stream, its abort signal, a listener for notes, how to name options. */
export interface OutputDeps {
  stdout: NodeJS.WritableStream;
  /** How messages name options (`--force` for the CLI); default: the library's option names. */
  names?: NameOf;
  signal?: AbortSignal;
  /** Notes for stderr: nothing matched, zero instruments, repeated marketIds (last wins). */
  onNote?: (message: string) => void;
}

/** What fetching needs: the transport plus optional listeners (requests, progress, notes). */
export interface ReferenceDeps extends Transport {
  /** Told of each request before it is sent; the URL is redacted. */
  onRequest?: (url: string) => void;
  onNote?: (message: string) => void;
  onProgress?: (event: ProgressEvent) => void;
}

/** Deps of the commands that fetch and write. */
export interface ReferenceRunDeps extends ReferenceDeps, OutputDeps {}

/** The exchanges list as fetched: typed elements, and the decoded body for `--format xml`. */
export interface FetchedExchanges {
  exchanges: Exchange[];
  xml: Buffer;
  /** The list's version, for a later conditional request. */
  validators?: Validators;
}

/** The outcome of a reference command: rows written (instruments or exchanges) and where. */
export interface ReferenceResult {
  written: number;
  /** The file written; absent for the run's stream. */
  output?: string;
  /** The reader of stdout went away: the run stopped quietly (exit 0). */
  stdoutClosed: boolean;
  /** Row counts per table, for `--format sqlite`. */
  sqlite?: SqliteCounts;
}

/** The outcome of `runInstruments`: also the exchange the argument designated. */
export interface InstrumentsResult extends ReferenceResult {
  exchange: Exchange;
}

/**
 * Throws MDGET_USAGE for option sets no writer can honour: an empty `-o` or one ending in `/` (as for a
 * download, so --dry-run refuses it too), sqlite to stdout, `table` outside csv.
 */
export function checkTablesOptions(options: TablesOptions, names: NameOf = optionNames): void {
  if (options.output !== undefined) checkOutputPath(options.output, names('output'));
  if (options.format === 'sqlite' && options.output === undefined) {
    throw usageError(
      `${names('format')} sqlite needs ${names('output')} <file>: a database cannot be written to a stream`,
    );
  }
  if (options.table !== undefined && options.format !== 'csv' && options.format !== 'parquet') {
    throw usageError(
      `${names('table')} applies to ${names('format')} csv and parquet only (${options.format} carries every table); drop it or use ${names('format')} csv`,
    );
  }
  const { compression } = options;
  if (compression !== undefined && !PARQUET_COMPRESSIONS.includes(compression))
    throw usageError(
      `${names('compression')} '${String(compression)}': use one of ${PARQUET_COMPRESSIONS.join(', ')}`,
    );
  if (compression !== undefined && options.format !== 'parquet')
    throw usageError(`${names('compression')} applies to ${names('format')} parquet, not ${options.format}`);
  if (
    options.output !== undefined &&
    formatOfName(options.output) === 'parquet' &&
    options.format !== 'parquet'
  )
    throw usageError(
      `${names('output')} ${options.output} names a Parquet file: drop ${names('format')} ${options.format}, or rename it`,
    );
}

/** Throws MDGET_USAGE for a malformed `-o`, or `find` with `xml`, whose bytes go out unchanged and unfiltered. */
export function checkExchangesOptions(options: ExchangesOptions, names: NameOf = optionNames): void {
  if (options.output !== undefined) checkOutputPath(options.output, names('output'));
  // a list of a few dozen rows has no Parquet form: a csv under that name would mislead its readers
  if (options.output !== undefined && formatOfName(options.output) === 'parquet')
    throw usageError(
      `${names('output')} ${options.output}: exchanges writes csv, json, ndjson or xml, not Parquet; rename it`,
    );
  if (options.find !== undefined && options.format === 'xml') {
    throw usageError(
      `${names('find')} cannot filter ${names('format')} xml (the service bytes pass through): use csv, json or ndjson`,
    );
  }
}
