/**
 * The options of a download, as the library takes them and the CLI builds them from its flags: one type,
 * checked by one set of rules (plan/rules.ts), resolved into a job once (plan/resolve.ts).
 */
import type { OutputFormat, ParquetCompression } from './formats.js';
import type {
  eodParams,
  eventsParams,
  futuresOptionsParams,
  minutesParams,
  ParamsOf,
  ticksParams,
} from './params.js';

/**
 * A date as the CLI takes it (`2025-03-10`, `2025-03-10T09:30`, with `Z` or an offset, `20250310`,
 * `today`, `yesterday`, `3d`), or a Date whose UTC fields are the market's wall clock.
 */
export type DateInput = Date | string;

/** Extra query parameters passed through unchanged (--param key=value). */
export type ExtraParams = readonly (readonly [string, string])[];

/** What every query names: its symbols (roots for futures options), and parameters passed through. */
export interface SymbolsQuery {
  symbols: string | readonly string[];
  extra?: ExtraParams;
}

/** Which minutes endpoint: plain, continuous front contract (`--nearby`) or Form-T (`--form-t`). */
export type MinutesVariant = 'minutes' | 'nearby' | 'form-t';

/** The query of each download command: its symbols and its service parameters, camelCased. */
export interface Queries {
  ticks: SymbolsQuery & ParamsOf<typeof ticksParams, DateInput>;
  minutes: SymbolsQuery & ParamsOf<typeof minutesParams, DateInput> & { variant?: MinutesVariant };
  eod: SymbolsQuery & ParamsOf<typeof eodParams, DateInput>;
  events: SymbolsQuery & ParamsOf<typeof eventsParams, DateInput>;
  daterange: SymbolsQuery & { database: 'minutes' | 'eod' };
  futopts: SymbolsQuery & ParamsOf<typeof futuresOptionsParams, DateInput> & { json?: boolean };
}

/** The download commands. */
export type DownloadName = keyof Queries;

/** How a download's outputs are written; every field has a default. */
export interface OutputOptions {
  /**
   * A file (written atomically), or a template with `{symbol}`, `{date}`, `{start}`, `{end}`,
   * `{command}`, `{ext}`: one file per symbol or window. Absent: the run's stream (the CLI's stdout).
   */
  output?: string;
  /**
   * Default: the one the output's name asks for (`.ndjson`: ndjson, model/formats.ts), else csv (futopts
   * with `json`: json); a name that asks for another is refused.
   */
  format?: OutputFormat;
  /** How `parquet` compresses its pages (default zstd). */
  compression?: ParquetCompression;
  /** The csv header row (default true). */
  header?: boolean;
  /** Overwrite existing files (default: refuse before any request). */
  force?: boolean;
  /** Leave existing files alone and do not request them again. */
  skipExisting?: boolean;
  /** Resume existing file outputs after their last rows. */
  update?: boolean;
  /** Compress the output (also chosen by a `.gz` file name). */
  gzip?: boolean;
  /** The csv columns to write, in this order. */
  columns?: readonly string[];
  /** Timestamps as ISO 8601 with an offset, in UTC (`'utc'`) or an IANA zone. */
  timeZone?: string;
  /** The zone the service's times are in, when not the market's. */
  sourceTimeZone?: string;
  /** fsync files before the rename (default true). */
  fsync?: boolean;
  /** Where spool files go (default: beside the output; the system's temporary directory for a stream). */
  tempDir?: string;
}

/** How a download is split and paced. */
export interface RunOptions {
  /** Most requests in flight at once (default 4); the sockets per host are sized from it. */
  concurrency?: number;
  /** Tries after the first, on network errors, 429 and 5xx, in the whole run (default 3). */
  retries?: number;
  /** Wait for headers, or for the next bytes of a body, in milliseconds (default 60000). */
  timeoutMs?: number;
  /** Most requests per second (default: no limit). */
  rate?: number;
  /** The server's cap on rows per response, if known: a response that reaches it is completed. */
  maxRows?: number;
  /** Length of the windows a long range is split into, in milliseconds (time series). */
  windowMs?: number;
  /** Only the index-th (1-based) of count deterministic shares of the plan. */
  shard?: { index: number; count: number };
}

/** Everything a download of command `N` takes. */
export type DownloadOptions<N extends DownloadName = DownloadName> = Queries[N] & OutputOptions & RunOptions;
