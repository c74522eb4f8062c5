/**
 * `sync`: brings a dataset up to date. Every series is planned first (a mistake anywhere stops it before
 * a request), the lock is taken, each planned file is decided on from its ledger row and the file on
 * disk, the files to fetch run through the download commands' engine, and the reference files are asked
 * for only if they changed. docs/dataset.md is the contract.
 */
import type { Config } from '../model/config.js';
import { DEFAULTS } from '../model/defaults.js';
import { interruptedError, MdgetError } from '../model/errors.js';
import type { BatchResult, RequestResult, RunCounts, RunDeps } from '../run/run-types.js';
import type { Dataset } from './dataset.js';
import { fileFacts } from './file-facts.js';
import { Ledger, type LedgerRow, ledgerName, type Share } from './ledger.js';
import { planDataset, type SeriesPlan } from './series-plan.js';
import { removeStaleParts } from './stale-parts.js';
import { type Decision, decide, type FetchReason, inShare } from './sync-decisions.js';
import { lockSync } from './sync-lock.js';
import { progressAcrossJobs } from './sync-progress.js';
import { type ReferenceOutcome, syncReference } from './sync-reference.js';
import { fetchSeries, Recorder } from './sync-series.js';

/** How a sync runs; the transport and listeners come with its deps. */
export interface SyncOptions {
  /** Re-hash every recorded file and fetch again those whose bytes changed, not only their size. */
  repair?: boolean;
  /** This run's share of the files (CI matrices); its ledger is a file of its own. */
  shard?: Share;
  /** How long to wait for another sync of the dataset to finish (default: not at all, exit 6). */
  waitMs?: number;
  /** Most requests in flight at once (default 4). */
  concurrency?: number;
}

/** What a sync needs: the configuration, the instant now, a transport and the run's listeners. */
export interface SyncDeps extends Omit<RunDeps, 'onCommitted'> {
  config: Config;
  now: () => Date;
}

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

/** Syncs `dataset`; throws before any request for a mistake, and MDGET_IO when another sync holds it. */
export async function runSync(dataset: Dataset, options: SyncOptions, deps: SyncDeps): Promise<SyncResult> {
  const plans = planDataset(
    dataset.series,
    { config: deps.config, now: deps.now(), root: dataset.root },
    dataset.reference,
  );
  const share = options.shard;
  const reference = referenceOf(dataset, share);

  const lock = await lockSync(dataset.root, share, {
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  try {
    return await syncLocked(dataset, plans, reference, options, deps);
  } finally {
    await lock.release();
  }
}

/** The sync itself, the lock held: decisions, fetches and reference files, recorded in the ledger. */
async function syncLocked(
  dataset: Dataset,
  plans: readonly SeriesPlan[],
  reference: Dataset['reference'],
  options: SyncOptions,
  deps: SyncDeps,
): Promise<SyncResult> {
  const share = options.shard;
  const ledger = Ledger.open(dataset.root, share);
  // a sync's own start and end are when it ran, on the machine's clock, whatever day `now` plans for
  // (MDGET_NOW fixes the latter only: a fixed clock would give every sync one start and end)
  const syncId = ledger.startSync(new Date().toISOString(), process.pid);
  const result = emptyResult();
  try {
    const rows = ledger.rows();
    const recorder = new Recorder(ledger, deps.now);
    const nextJob = progressAcrossJobs(deps);
    const concurrency = options.concurrency ?? DEFAULTS.concurrency;
    for (const plan of plans) {
      if (deps.signal?.aborted) break;
      const decisions = await decisionsOf(plan, rows, share, options.repair);
      await note(plan, decisions, recorder, result);
      await removeStaleParts(decisions.flatMap((d) => (d.action === 'fetch' ? [d.output.path] : [])));
      for (const batch of await fetchSeries(plan, decisions, recorder, nextJob, concurrency))
        collect(batch, plan, result);
    }
    if (!deps.signal?.aborted && reference.length > 0) {
      result.reference = await syncReference(reference, {
        config: deps.config,
        root: dataset.root,
        ledger,
        rows,
        now: deps.now,
        deps: { ...deps, stdout: deps.stdout },
      });
      for (const r of result.reference) {
        if (r.status === 'written' || r.status === 'failed')
          result.fetches.push({ series: r.kind, path: r.path, reason: 'refresh', requests: 1 });
        if (r.error) result.failed.push({ series: r.kind, path: r.path, error: r.error });
      }
    }
    result.failure = failureOf(result, deps.signal);
  } finally {
    ledger.endSync(syncId, {
      endedAt: new Date().toISOString(),
      outcome: result.failure?.code ?? 'ok',
      fetched: result.fetches.length - result.failed.length,
      failed: result.failed.length,
      failures: result.failed.map((f) => ({ series: f.series, path: f.path, reason: f.error.message })),
    });
    ledger.close();
  }
  return result;
}

/** The decisions of a series' files in this share; with `repair`, a file is re-hashed too. */
function decisionsOf(
  plan: SeriesPlan,
  rows: ReadonlyMap<string, LedgerRow>,
  share: Share | undefined,
  repair: boolean | undefined,
): Promise<Decision[]> {
  const outputs = plan.outputs.filter((o) => inShare(o.key, share));
  return decide(outputs, rows, repair ? { hash: async (path) => (await fileFacts(path)).sha256 } : {});
}

/** Records the files to adopt, and counts those complete and those to fetch. */
async function note(
  plan: SeriesPlan,
  decisions: readonly Decision[],
  recorder: Recorder,
  result: SyncResult,
): Promise<void> {
  for (const d of decisions) {
    if (d.action === 'complete') result.complete++;
    else if (d.action === 'adopt') {
      await recorder.record(d.output, plan.job.settings, [], false);
      result.adopted.push(d.output.path);
    } else
      result.fetches.push({
        series: plan.series.name,
        path: d.output.path,
        reason: d.reason,
        requests: d.output.requests.length,
      });
  }
}

/** Folds one job's outcome into the sync's: results, counts, and the files that failed. */
function collect(batch: BatchResult, plan: SeriesPlan, result: SyncResult): void {
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

/** 0 when nothing failed; partial (7) when something else was done; else the first failure. */
function failureOf(result: SyncResult, signal: AbortSignal | undefined): MdgetError | undefined {
  if (signal?.aborted) return interruptedError();
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

/** The reference files a share keeps: the first share (or an unsharded sync) keeps them all. */
const referenceOf = (dataset: Dataset, share: Share | undefined) =>
  !share || share.index === 1 ? dataset.reference : [];

/**
 * What a sync would do (--dry-run): the decisions against this share's ledger, read only if it exists.
 * Nothing is sent, locked or written.
 */
export async function planSync(
  dataset: Dataset,
  options: SyncOptions,
  deps: Pick<SyncDeps, 'config' | 'now'>,
): Promise<SyncResult> {
  const plans = planDataset(
    dataset.series,
    { config: deps.config, now: deps.now(), root: dataset.root },
    dataset.reference,
  );
  const reference = referenceOf(dataset, options.shard);
  const result = emptyResult();
  const ledgers = Ledger.openAll(dataset.root);
  const mine = ledgers.find((l) => l.path.endsWith(`/${ledgerName(options.shard)}`));
  const rows = mine?.rows() ?? new Map<string, LedgerRow>();
  for (const l of ledgers) l.close();
  for (const plan of plans)
    for (const d of await decisionsOf(plan, rows, options.shard, options.repair)) {
      if (d.action === 'complete') result.complete++;
      else if (d.action === 'adopt') result.adopted.push(d.output.path);
      else
        result.fetches.push({
          series: plan.series.name,
          path: d.output.path,
          reason: d.reason,
          requests: d.output.requests.length,
        });
    }
  for (const file of reference)
    result.fetches.push({ series: file.kind, path: file.path, reason: 'refresh', requests: 1 });
  return result;
}

const emptyResult = (): SyncResult => ({
  fetches: [],
  adopted: [],
  complete: 0,
  reference: [],
  results: [],
  counts: { sent: 0, retries: 0, peakInFlight: 0, continuations: 0, probes: 0, probeHits: 0 },
  failed: [],
  stdoutClosed: false,
});
