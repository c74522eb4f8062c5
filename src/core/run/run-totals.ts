import type { BatchResult } from './run-types.js';

/** What a run came to, as --report's totals and the metrics file count it. */
export interface RunTotals {
  /** HTTP requests sent, retries and continuations included. */
  requests: number;
  /** Requests of the plan to send (skipped files left out): with no cap reached and no retry, = requests. */
  planned: number;
  /** Requests added to complete windows, probes included. */
  continuations: number;
  /** Continuations sent only to learn whether a response was cut (docs/completeness.md#probes). */
  probes: number;
  retries: number;
  /** Rows written by requests that ended well. */
  rows: number;
  /** Decoded bytes received. */
  bytes: number;
  /** Files written (renamed into place). */
  files: number;
  /** Outputs (files, or the stream) with a failed request. */
  failed: number;
}

/** The totals of a download's or a sync's results. */
export function runTotals(result: Pick<BatchResult, 'results' | 'counts'>): RunTotals {
  const continuations = result.results.filter((r) => r.continuation);
  const written = result.results.filter((r) => r.status === 'ok' || r.status === 'empty');
  const files = new Set(written.flatMap((r) => (r.output === undefined ? [] : [r.output])));
  const failed = new Set(result.results.flatMap((r) => (r.status === 'failed' ? [r.output ?? '-'] : [])));
  return {
    requests: result.counts.sent,
    planned: result.results.filter((r) => !r.continuation && r.status !== 'skipped').length,
    continuations: continuations.length,
    probes: continuations.filter((r) => r.continuation?.reason === 'probe').length,
    retries: result.counts.retries,
    rows: written.reduce((sum, r) => sum + r.rows, 0),
    bytes: result.results.reduce((sum, r) => sum + r.bytes, 0),
    files: files.size,
    failed: failed.size,
  };
}
