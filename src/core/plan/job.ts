import type { Requirement } from '../model/config.js';
import type { OutputFormat, ParquetCompression } from '../model/formats.js';
import type { DownloadName } from '../model/options.js';
import type { PlannedRequest } from './planned-request.js';
import type { TransportSettings } from './transport-settings.js';

/** A download resolved: the requests to send, each with its zone, window and output, and how to run them. */
export interface Job {
  command: DownloadName;
  requests: PlannedRequest[];
  settings: RunSettings;
  /**
   * The configuration its run needs (base URLs, credentials), checked when it runs (runJob), not when it
   * is planned: planning, status, verify and --dry-run need none.
   */
  needs: readonly Requirement[];
  /** What the caller should hear before the run: one line each (a shard whose output does not separate it). */
  warnings: string[];
}

/** How a job's outputs are written and its requests sent, every default applied (model/defaults.ts). */
export interface RunSettings {
  format: OutputFormat;
  /** How Parquet pages are compressed: set for the parquet format only. */
  compression?: ParquetCompression;
  /** The csv header row. */
  header: boolean;
  force: boolean;
  skipExisting: boolean;
  /** Outputs that exist are resumed after their last rows instead of refused. */
  update: boolean;
  /** Outputs are compressed while written. */
  gzip: boolean;
  /** Most requests in flight at once (the transport's concurrency, for the run's own use). */
  concurrency: number;
  /** How the requests travel: retries, timeout, rate, sockets (transport-settings.ts). */
  transport: TransportSettings;
  /** fsync files before the rename. */
  fsync: boolean;
  /** Where spool files go (default: beside the output; the system's temporary directory for a stream). */
  tempDir?: string;
  /** The row count at which a time-series response is taken as cut by the server. */
  maxRows?: number;
  /** Timestamps of csv, ndjson and json rewritten as ISO 8601 with an offset: 'utc' or an IANA zone. */
  timeZone?: string;
  /** The csv columns to write, in this order. */
  columns?: readonly string[];
}
