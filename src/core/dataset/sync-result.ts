/**
 * What a sync did: the files fetched and why, those written, complete, adopted and failed, and the one
 * failure the CLI maps to its exit status (docs/dataset.md#mdget-sync-file).
 */
import { isAbsolute, relative, sep } from 'node:path';
import { interruptedError, MdgetError } from '../model/errors.js';
import type { BatchResult, RequestResult, RunCounts } from '../run/run-types.js';
import type { SeriesPlan } from './series-plan.js';
import type { FetchReason } from './sync-decisions.js';
import type { ReferenceOutcome } from './sync-reference.js';

/** One file the sync fetched or would fetch, and why. */
export interface PlannedFetch {
  series: string;
  path: string;
  reason: FetchReason | 'refresh';
  requests: number;
}

/** What a sync did (or, planned, would do). */
export interface SyncResult {
  /** Files fetched (or to fetch), with the reason. */
  fetches: PlannedFetch[];
  /** Files written by this run and recorded: fewer than `fetches` when it was stopped or some failed. */
  written: number;
  /** Files found in place without a row, recorded as they are. */
  adopted: string[];
  /** Files already complete. */
  complete: number;
  reference: ReferenceOutcome[];
  results: RequestResult[];
  counts: RunCounts;
  /** Files that failed, by path, with their error. */
  failed: { series: string; path: string; error: MdgetError }[];
  stdoutClosed: boolean;
  /** Set when anything failed: MDGET_PARTIAL when the rest was written, else the failure itself. */
  failure?: MdgetError;
}

/** Folds one job's outcome into the sync's: results, counts, and the files that failed. */
export function collect(batch: BatchResult, plan: SeriesPlan, result: SyncResult): void {
  result.results.push(...batch.results);
  for (const key of ['sent', 'retries', 'continuations', 'probes', 'probeHits'] as const)
    result.counts[key] += batch.counts[key];
  result.counts.peakInFlight = Math.max(result.counts.peakInFlight, batch.counts.peakInFlight);
  result.stdoutClosed ||= batch.stdoutClosed;
  const failedPaths = new Map<string, MdgetError>();
  for (const r of batch.results)
    if (r.status === 'failed' && r.output && !failedPaths.has(r.output))
      failedPaths.set(
        r.output,
        new MdgetError(r.error?.code ?? 'MDGET_NETWORK', r.error?.message ?? 'failed'),
      );
  if (batch.failure && failedPaths.size === 0 && batch.failure.code !== 'MDGET_ABORTED')
    failedPaths.set(plan.outputs[0]?.path ?? plan.series.name, batch.failure);
  for (const [path, error] of failedPaths) result.failed.push({ series: plan.series.name, path, error });
}

/** The first output error (MDGET_IO: a full disk, a file that cannot be written) among the failures. */
export const outputFailure = (result: SyncResult): MdgetError | undefined =>
  result.failed.find((f) => f.error.code === 'MDGET_IO')?.error;

/**
 * 0 when nothing failed; an output error as itself (it stopped the sync); partial (7) when something else
 * was done; else the first failure.
 */
export function failureOf(result: SyncResult, signal: AbortSignal | undefined): MdgetError | undefined {
  if (signal?.aborted) return interruptedError();
  const output = outputFailure(result);
  if (output) return output;
  const first = result.failed[0];
  if (!first) return undefined;
  const done =
    result.fetches.length > result.failed.length || result.complete > 0 || result.adopted.length > 0;
  if (!done) return first.error;
  return new MdgetError(
    'MDGET_PARTIAL',
    `${result.failed.length} of ${result.fetches.length} files failed (first: ${first.path}: ${first.error.message})`,
  );
}

/** A path under root as the ledger keeps it; one outside root (a failure of the dataset) as it is. */
export const keyOf = (root: string, path: string): string => {
  const key = relative(root, path);
  return key === '' || key.startsWith('..') || isAbsolute(key) ? path : key.split(sep).join('/');
};

export const emptyResult = (): SyncResult => ({
  fetches: [],
  written: 0,
  adopted: [],
  complete: 0,
  reference: [],
  results: [],
  counts: { sent: 0, retries: 0, peakInFlight: 0, continuations: 0, probes: 0, probeHits: 0 },
  failed: [],
  stdoutClosed: false,
});
