/**
 * The dataset methods of the client: sync, status and verify of a dataset file or of an object of the
 * same shape, on the client's transport. Each module is loaded when first called: a client that only
 * downloads never loads the TOML parser or SQLite.
 */
import type { Config } from '../model/config.js';
import { type MetricsSettings, type RunTrack, withRunMetrics } from '../run/run-metrics.js';
import { runTotals } from '../run/run-totals.js';
import type { RunDeps } from '../run/run-types.js';
import type { Dataset, DatasetInput } from './dataset.js';
import type { DatasetStatus } from './status.js';
import type { SyncOptions, SyncResult } from './sync.js';
import type { VerifyResult } from './verify.js';

/** A dataset file's path, or the dataset itself with the directory its relative paths start from. */
export type DatasetRef = string | { dataset: DatasetInput; dir: string };

/**
 * How sync runs from the library: the sync options, dryRun to plan only, a signal to stop, and a metrics
 * file written at the end, success or failure, with the per-series gauges (docs/library.md#metrics).
 */
export type SyncSettings = SyncOptions & {
  dryRun?: boolean;
  signal?: AbortSignal;
  metrics?: MetricsSettings;
};

export interface DatasetMethods {
  /** Brings the dataset up to date (docs/dataset.md); `dryRun` says what it would fetch and why. */
  sync(dataset: DatasetRef, settings?: SyncSettings): Promise<SyncResult>;
  /** Where the dataset stands, from its ledgers; sends nothing. */
  status(dataset: DatasetRef): Promise<DatasetStatus>;
  /** Re-hashes recorded files, finds unknown files and suspicious gaps; sends nothing. */
  verify(dataset: DatasetRef): Promise<VerifyResult>;
}

async function load(ref: DatasetRef): Promise<Dataset> {
  const { readDataset, datasetFromObject } = await import('./dataset-file.js');
  return typeof ref === 'string' ? readDataset(ref) : datasetFromObject(ref.dataset, ref.dir);
}

/** The methods, on `deps(signal, options)`: the client's transport for a sync's settings, and listeners. */
export function datasetMethods(
  config: Config,
  now: () => Date,
  deps: (signal: AbortSignal | undefined, options: SyncOptions) => Omit<RunDeps, 'onCommitted'>,
  onWarning?: (message: string) => void,
): DatasetMethods {
  return {
    sync: async (ref, { dryRun, signal, metrics, ...options } = {}) => {
      if (dryRun) {
        const { planSync } = await import('./sync.js');
        return planSync(await load(ref), options, { config, now });
      }
      const run = { command: 'sync', clock: now, ...(typeof ref === 'string' ? { datasetFile: ref } : {}) };
      return withRunMetrics(metrics, run, onWarning, async (track) => {
        const dataset = await load(ref);
        const { runSync } = await import('./sync.js');
        try {
          const result = await runSync(dataset, options, { ...deps(signal, options), config, now });
          track.totals = runTotals(result);
          track.failed = result.failure !== undefined;
          if (result.failure && result.failure.code !== 'MDGET_PARTIAL') throw result.failure;
          return result;
        } finally {
          // the gauges read the ledgers as the run leaves them, whatever stopped it
          if (metrics) await seriesGauges(dataset, now(), track);
        }
      });
    },
    status: async (ref) => {
      const { datasetStatus } = await import('./status.js');
      return datasetStatus(await load(ref), now());
    },
    verify: async (ref) => {
      const { verifyDataset } = await import('./verify.js');
      return verifyDataset(await load(ref));
    },
  };
}

/** The per-series gauges of a sync's metrics, from the ledgers; none when they cannot be read. */
async function seriesGauges(dataset: Dataset, now: Date, track: RunTrack): Promise<void> {
  const [{ datasetStatus }, { seriesFamilies }] = await Promise.all([
    import('./status.js'),
    import('./series-metrics.js'),
  ]);
  const status = await datasetStatus(dataset, now).catch(() => undefined);
  if (status) track.extra = (labels) => seriesFamilies(status, labels);
}
