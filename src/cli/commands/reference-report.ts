import { type ErrorCode, isMdgetError } from '../../core/model/errors.js';
import type { ReferenceRunDeps } from '../../core/reference/instruments-command.js';
import type { RunContext } from '../context.js';

/** One request of a reference command, as the --report file lists it. */
export interface ReferenceEntry {
  url: string;
  status: 'ok' | 'empty' | 'failed';
  /** Exchanges listed or instruments written, on the request that produced the output. */
  rows?: number;
  /** Decoded bytes received, when the response was streamed with progress events. */
  bytes?: number;
  durationMs: number;
  /** The file written; absent for standard output. */
  output?: string;
  error?: { code: ErrorCode; message: string };
}

/**
 * Records the requests of a reference run for --report: each URL as it is sent (redacted by core), its
 * bytes from the progress events, its duration; the last one carries the outcome. Listeners already
 * set are still told.
 */
class ReferenceRecorder {
  readonly entries: ReferenceEntry[] = [];
  private started = Date.now();

  constructor(private readonly output: string | undefined) {}

  /** Deps that tell the recorder of each request and its bytes, and the given listeners as before. */
  wrap(deps: ReferenceRunDeps): ReferenceRunDeps {
    return {
      ...deps,
      onRequest: (url) => {
        this.closeLast();
        this.started = Date.now();
        this.entries.push({
          url,
          status: 'ok',
          durationMs: 0,
          ...(this.output === undefined ? {} : { output: this.output }),
        });
        deps.onRequest?.(url);
      },
      onProgress: (event) => {
        const last = this.entries.at(-1);
        if (last) last.bytes = event.bytes;
        deps.onProgress?.(event);
      },
    };
  }

  /** The entries, the last one with the outcome: rows written, or the error that ended the run. */
  finish(rows: number | undefined, error?: unknown): ReferenceEntry[] {
    const last = this.entries.at(-1);
    if (last && error !== undefined) {
      last.status = 'failed';
      last.error = isMdgetError(error)
        ? { code: error.code, message: error.message }
        : { code: 'MDGET_IO', message: String(error) };
    } else if (last && rows !== undefined) {
      last.rows = rows;
      last.status = rows === 0 ? 'empty' : 'ok';
    }
    this.closeLast();
    return this.entries;
  }

  private closeLast(): void {
    const last = this.entries.at(-1);
    if (last && last.durationMs === 0) last.durationMs = Date.now() - this.started;
  }
}

/** Runs `body` with a recorder when --report asks for one, and writes the report whatever the outcome. */
export async function withReport<T extends { written: number }>(
  path: string | undefined,
  command: string,
  output: string | undefined,
  ctx: RunContext,
  body: (wrap: (deps: ReferenceRunDeps) => ReferenceRunDeps) => Promise<T>,
): Promise<T> {
  if (path === undefined) return body((deps) => deps);
  const report = await import('../report.js');
  await report.checkReportPath(path);
  const recorder = new ReferenceRecorder(output);
  const write = (entries: ReferenceEntry[], rows: number, error?: unknown) =>
    report.writeReport(path, command, { entries, totals: totalsOf(entries, rows, output), error }, ctx);
  try {
    const result = await body((deps) => recorder.wrap(deps));
    await write(recorder.finish(result.written), result.written);
    return result;
  } catch (error) {
    await write(recorder.finish(undefined, error), 0, error);
    throw error;
  }
}

/** The totals of a reference run: its requests, the rows it wrote, bytes received, the file if any. */
function totalsOf(
  entries: readonly ReferenceEntry[],
  rows: number,
  output: string | undefined,
): Record<string, number> {
  const failed = entries.some((entry) => entry.status === 'failed');
  return {
    requests: entries.length,
    continuations: 0,
    retries: 0,
    rows,
    bytes: entries.reduce((sum, entry) => sum + (entry.bytes ?? 0), 0),
    files: output !== undefined && !failed ? 1 : 0,
  };
}
