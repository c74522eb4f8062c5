/**
 * `sync`: brings a dataset up to date. Every series is planned first (a mistake anywhere stops it before
 * a request), the lock is taken, each planned file is decided on from its ledger row and the file on
 * disk, the files to fetch run through the download commands' engine, and the reference files are asked
 * for only if they changed. docs/dataset.md is the contract.
 */
import { type Config, requireConfig } from '../model/config.js';
import type { RunOptions } from '../model/options.js';
import { transportSettingsOf } from '../plan/transport-settings.js';
import type { RunDeps } from '../run/run-types.js';
import type { Dataset } from './dataset.js';
import { fileHash } from './file-facts.js';
import { formOf } from './file-form.js';
import { Ledger, type LedgerRow, ledgerName, type Share } from './ledger.js';
import { planDataset, type SeriesPlan } from './series-plan.js';
import { removeOrphanMarkers, removeStaleParts } from './stale-parts.js';
import { type Decision, decide, inShare } from './sync-decisions.js';
import { lockSync } from './sync-lock.js';
import { progressAcrossJobs } from './sync-progress.js';
import { syncReference } from './sync-reference.js';
import { collect, emptyResult, failureOf, keyOf, outputFailure, type SyncResult } from './sync-result.js';
import { fetchSeries, Recorder } from './sync-series.js';

export type { PlannedFetch, SyncResult } from './sync-result.js';

/**
 * How a sync runs; its transport settings (concurrency, retries, timeout, rate) size the dispatcher and
 * rate limiter its caller hands in with the deps (transportSettingsOf), and every job's scheduler.
 */
export interface SyncOptions extends Pick<RunOptions, 'retries' | 'timeoutMs' | 'rate'> {
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

/** Syncs `dataset`; throws before any request for a mistake, and MDGET_IO when another sync holds it. */
export async function runSync(dataset: Dataset, options: SyncOptions, deps: SyncDeps): Promise<SyncResult> {
  const plans = planDataset(
    dataset.series,
    { config: deps.config, now: deps.now(), root: dataset.root },
    dataset.reference,
  );
  // what the series' requests are built on and signed with, checked before the lock and the first request
  requireConfig(deps.config, [...new Set(plans.flatMap((plan) => plan.job.needs))]);
  const share = options.shard;
  const reference = referenceOf(dataset, share);

  const lock = await lockSync(dataset.root, share, {
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.onNote ? { onTakeOver: deps.onNote } : {}),
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
  const recorder = new Recorder(ledger, deps.now);
  let refused: unknown;
  try {
    const rows = ledger.rows();
    const nextJob = progressAcrossJobs(deps);
    const transport = transportSettingsOf(options);
    for (const plan of plans) {
      if (deps.signal?.aborted) break;
      const decisions = await decisionsOf(plan, rows, share, options.repair);
      await note(plan, decisions, recorder, result, ledger);
      for (const d of decisions)
        if (d.action === 'fetch' && d.detail) deps.onNote?.(`${d.output.key}: ${d.detail}`);
      const fetched = decisions.flatMap((d) => (d.action === 'fetch' ? [d.output.path] : []));
      // every planned file's, not only those fetched now: a killed sync's leftovers beside a file that is
      // complete since would stay for good
      await removeStaleParts(decisions.map((d) => d.output.path));
      try {
        for (const batch of await fetchSeries(plan, decisions, recorder, nextJob, transport))
          collect(batch, plan, result);
      } finally {
        await removeOrphanMarkers(fetched);
      }
      // an output error (a full disk) stops the sync: every later file would meet it too
      if (outputFailure(result)) break;
    }
    if (!deps.signal?.aborted && !outputFailure(result) && reference.length > 0) {
      result.reference = await syncReference(reference, {
        config: deps.config,
        root: dataset.root,
        ledger,
        rows,
        now: deps.now,
        deps: { ...deps, stdout: deps.stdout },
      });
      for (const r of result.reference) {
        if (r.status === 'written') recorder.written++;
        if (r.status === 'written' || r.status === 'failed')
          result.fetches.push({ series: r.kind, path: r.path, reason: 'refresh', requests: 1 });
        if (r.error) result.failed.push({ series: r.kind, path: r.path, error: r.error });
      }
    }
    result.failure = failureOf(result, deps.signal);
  } finally {
    result.written = recorder.written;
    refused = recordEnd(ledger, syncId, result, dataset.root);
    ledger.close();
  }
  // a full disk may refuse the record of the sync too: the failure that ended it is the one to tell
  if (refused !== undefined && !result.failure) throw refused;
  return result;
}

/** Records how the sync ended; returns the ledger's failure to, if any, for the caller to weigh. */
function recordEnd(ledger: Ledger, syncId: number, result: SyncResult, root: string): unknown {
  try {
    ledger.endSync(syncId, {
      // when it ran, as its start: not the day `now` plans for
      endedAt: new Date().toISOString(),
      outcome: result.failure?.code ?? 'ok',
      fetched: result.written,
      failed: result.failed.length,
      failures: result.failed.map((f) => ({
        series: f.series,
        path: keyOf(root, f.path),
        reason: f.error.message,
      })),
    });
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The decisions of a series' files in this share; with `repair`, a file is re-hashed too. */
function decisionsOf(
  plan: SeriesPlan,
  rows: ReadonlyMap<string, LedgerRow>,
  share: Share | undefined,
  repair: boolean | undefined,
): Promise<Decision[]> {
  const outputs = plan.outputs.filter((o) => inShare(o.key, share));
  return decide(outputs, rows, {
    hash: fileHash,
    form: formOf(plan.series, plan.job.settings),
    ...(repair ? { repair } : {}),
  });
}

/**
 * Records the files to adopt, and counts those complete and those to fetch; a complete file whose time
 * moved and whose bytes did not gets its new time, so the next sync need not hash it again.
 */
async function note(
  plan: SeriesPlan,
  decisions: readonly Decision[],
  recorder: Recorder,
  result: SyncResult,
  ledger: Ledger,
): Promise<void> {
  const touched: { path: string; mtimeMs: number }[] = [];
  for (const d of decisions) {
    if (d.action === 'complete') {
      result.complete++;
      if (d.mtimeMs !== undefined) touched.push({ path: d.output.key, mtimeMs: d.mtimeMs });
    } else if (d.action === 'adopt') {
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
  ledger.touch(touched);
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
