import type { Config } from '../model/config.js';
import type { ErrorCode, MdgetError } from '../model/errors.js';
import type { NameOf } from '../plan/names.js';
import type { FileMemory, OutputMemory } from '../sink/file-memory.js';
import type { RequestCounts, Transport } from './scheduler.js';

/** Progress of one request, for the CLI to draw; core never draws. */
export interface ProgressEvent {
  id: number;
  /** What the request is for: command, symbol and window ("ticks ESM25 2025-03-13"). */
  label: string;
  /** The file it writes to; absent for the run's stream. */
  output?: string;
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

/** What a run needs besides its job: the transport, the stream, listeners, and how to name options. */
export interface RunDeps extends Transport {
  /** Where outputs without a file go: the CLI's stdout, or a stream a library caller hands in. */
  stdout: NodeJS.WritableStream;
  /** How messages name options (`--force` for the CLI); default: the library's option names. */
  names?: NameOf;
  onProgress?: (event: ProgressEvent) => void;
  /** Told the plan's size before the first request and whenever it grows. */
  onPlan?: (event: PlanEvent) => void;
  /** Notes for stderr: zero records, skipped files; with what they are about, for structured logs. */
  onNote?: (message: string, about?: NoteSubject) => void;
  /** Told of each request before it is sent (--verbose), URL redacted. */
  onRequest?: (url: string) => void;
  /**
   * Told of each file once it is in place under its final name, before the run counts it done (a
   * dataset's ledger records it here); a rejection fails the output, whose file stays.
   */
  onCommitted?: (output: CommittedOutput) => Promise<void>;
  /**
   * Where the memory of each file is kept (how it was made, its size and hash), for --update to check
   * (docs/cli.md#outputs); the CLI and the client keep it beside each file. Absent, files are
   * neither remembered nor checked: the caller keeps its own record (a dataset's ledger).
   */
  memory?: OutputMemory;
}

/** What a job's run needs besides RunDeps. */
export interface JobDeps extends RunDeps {
  /**
   * The configuration each request's URL is built on and signed with when it is sent: the base URLs and
   * the credentials (runJob checks what the job needs first). Plans never need it.
   */
  config: Config;
}

/** The request or file a note is about. */
export interface NoteSubject {
  symbol?: string;
  file?: string;
}

/** A file output in place: its requests' results, and whether it was appended to (--update). */
export interface CommittedOutput {
  path: string;
  results: readonly RequestResult[];
  provisional: boolean;
  /** The file kept its earlier rows and got new ones after them. */
  appended: boolean;
  /** What was remembered of it, when the run keeps memories. */
  memory?: FileMemory;
}

export type RequestStatus = 'ok' | 'empty' | 'failed' | 'skipped' | 'not-run';

/** One entry of the --report file. */
export interface RequestResult {
  url: string;
  symbol: string;
  /** The request's window in the service's wall clock (`zone`), end exclusive: `2025-03-14` or `2025-03-14T09:30:00`. */
  start?: string;
  end?: string;
  zone: string;
  status: RequestStatus;
  rows: number;
  bytes: number;
  durationMs: number;
  /** The file the request wrote to; absent for the run's stream. */
  output?: string;
  /** A request mdget added to complete a window: its reason and the time key it starts from. */
  continuation?: { reason: 'cut' | 'probe'; from: string };
  error?: { code: ErrorCode; message: string };
}

/**
 * The requests of a run: those sent (retries, continuations and probes included), the retries, the most
 * in flight at once; continuations of cut responses, probes for a silent cap and probes that found one.
 */
export interface RunCounts extends RequestCounts {
  continuations: number;
  probes: number;
  probeHits: number;
}

/** What a run did: one result per request, and the failure if any. */
export interface BatchResult {
  results: RequestResult[];
  /** The reader of stdout went away: the run stopped quietly. */
  stdoutClosed: boolean;
  /** Set when anything failed: the single failure, or MDGET_PARTIAL when other outputs were written. */
  failure?: MdgetError;
  /** What the requests came to: sent, retried, at once; and those added to complete windows. */
  counts: RunCounts;
}
