import type { ErrorCode, MdgetError } from '../model/errors.js';
import type { OutputFormat } from '../pipeline/output-state.js';
import type { Transport } from './scheduler.js';

/** How the outputs of a batch are written (cli.md common options). */
export interface BatchOptions {
  /** `-` is stdout; a path with {symbol}, {date}, … is a template. */
  output: string;
  /** Default csv (futures options with `json`: json). */
  format: OutputFormat;
  /** csv header row. */
  header: boolean;
  force: boolean;
  skipExisting: boolean;
  concurrency: number;
  /** fsync files before the rename (default true). */
  fsync?: boolean;
  /** Where spool files go (default: beside the output; the system temp directory for stdout). */
  tempDir?: string;
  /** --update: outputs that exist are resumed after their last rows instead of refused. */
  update?: boolean;
  /** --max-rows: the row count at which a time-series response is taken as cut by the server. */
  maxRows?: number;
  /** --utc / --tz <zone>: timestamps of csv, ndjson and json rewritten as ISO 8601 with an offset. */
  timeZone?: 'utc' | string;
  /** --source-tz: the zone the service's timestamps are in, when not the market's (issue 13). */
  sourceTimeZone?: string;
  /** --columns: the csv columns to write, in this order. */
  columns?: readonly string[];
  /** --gzip (or a `.gz` output name): compress while writing. */
  gzip?: boolean;
}

/** Progress of one request, for the CLI to draw; core never draws. */
export interface ProgressEvent {
  id: number;
  /** What the request is for: command, symbol and window ("ticks ESM25 2025-03-13"). */
  label: string;
  /** The output it writes to (`-` for stdout). */
  output: string;
  /** Bytes received, decoded: what the user's file gets before formatting. */
  bytes: number;
  /** Bytes on the wire (compressed for gzip), and their total when Content-Length gives it. */
  wireBytes: number;
  wireTotal?: number;
  /** Rows written so far. */
  rows: number;
  done: boolean;
  /** How it ended, on the last event. */
  status?: 'ok' | 'empty' | 'failed';
}

/** The size of the plan: told once before the first request, and again when it grows (continuations). */
export interface PlanEvent {
  /** Requests planned so far, continuations included; skipped ones are not counted. */
  requests: number;
  outputs: number;
  /** Outputs left alone by --skip-existing or found up to date by --update. */
  skipped: number;
}

/** What a run needs besides its plan and options: HTTP plumbing, stdout, and listeners (all optional). */
export interface RunDeps extends Transport {
  stdout: NodeJS.WritableStream;
  onProgress?: (event: ProgressEvent) => void;
  /** Told the plan's size before the first request and whenever it grows. */
  onPlan?: (event: PlanEvent) => void;
  /** Notes for stderr: zero records, skipped files. */
  onNote?: (message: string) => void;
  /** Told of each request before it is sent (--verbose), URL redacted. */
  onRequest?: (url: string) => void;
}

export type RequestStatus = 'ok' | 'empty' | 'failed' | 'skipped' | 'not-run';

/** One entry of the --report file. */
export interface RequestResult {
  url: string;
  symbol: string;
  start?: string;
  end?: string;
  status: RequestStatus;
  rows: number;
  bytes: number;
  durationMs: number;
  output: string;
  /** A request mdget added to complete a window: its reason and the time key it starts from. */
  continuation?: { reason: 'cut' | 'probe'; from: string };
  error?: { code: ErrorCode; message: string };
}

export interface BatchResult {
  results: RequestResult[];
  /** The reader of stdout went away: the run stopped quietly. */
  stdoutClosed: boolean;
  /** Set when anything failed: the single failure, or MDGET_PARTIAL when other outputs were written. */
  failure?: MdgetError;
  /** Requests added to complete windows: continuations of cut responses, and probes for a silent cap. */
  completion: { continuations: number; probes: number; probeHits: number };
}
