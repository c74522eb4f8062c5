import type { ErrorCode, MdgetError } from './errors.js';
import type { HttpDeps } from './http.js';
import type { OutputFormat } from './output-state.js';

/** How the outputs of a batch are written (cli.md common options). */
export interface BatchOptions {
  output: string;
  format: OutputFormat;
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
}

/** Progress of one request, for the CLI to draw; core never draws. */
export interface ProgressEvent {
  id: number;
  label: string;
  bytes: number;
  totalBytes?: number;
  done: boolean;
}

/** What a run needs besides its plan and options: HTTP plumbing, stdout, and listeners (all optional). */
export interface RunDeps extends HttpDeps {
  stdout: NodeJS.WritableStream;
  onProgress?: (event: ProgressEvent) => void;
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
