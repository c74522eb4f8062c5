/**
 * --metrics-file for the download commands and sync: the settings from the flags and MDGET_METRICS_FILE,
 * and the run wrapped so that its metrics are written however it ends (docs/recipes.md#monitoring).
 */
import { resolve } from 'node:path';
import { usageError } from '../core/model/errors.js';
import type { MetricsSettings, RunOutcome } from '../core/run/run-metrics.js';
import type { RunContext } from './context.js';
import type { OptionFlags } from './flags.js';

export type MetricsFlags = OptionFlags<'metrics-file' | 'metrics-job'>;

/** The run's metrics settings: --metrics-file, else MDGET_METRICS_FILE; none when neither is set. */
export function metricsSettingsOf(flags: MetricsFlags, ctx: RunContext): MetricsSettings | undefined {
  const file = flags.metricsFile ?? ctx.io.env.MDGET_METRICS_FILE;
  if (file === undefined || file === '') {
    if (flags.metricsJob !== undefined)
      throw usageError('--metrics-job names the job of a metrics file: give --metrics-file <path> too');
    return undefined;
  }
  return { file: resolve(ctx.io.cwd, file), ...(flags.metricsJob ? { job: flags.metricsJob } : {}) };
}

/** What a command tells of its run as it goes: its totals and its extra families, once it knows them. */
export type MetricsTrack = Partial<Pick<RunOutcome, 'totals' | 'extra' | 'datasetFile'>> & {
  /** Runs at the end, before the file is written (a sync's gauges read the ledgers then). */
  before?: () => Promise<void>;
};

/**
 * Runs `body`, then writes the metrics with the exit status the run will have (signals included); a
 * problem with the file is one warning, even with -q, and never changes that status.
 */
export async function withMetrics(
  settings: MetricsSettings | undefined,
  command: string,
  ctx: RunContext,
  body: (track: MetricsTrack) => Promise<void>,
): Promise<void> {
  const started = performance.now();
  const track: MetricsTrack = {};
  let failure: unknown;
  try {
    await body(track);
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    if (settings) {
      const warnings: string[] = [];
      await track.before?.().catch((error: unknown) => {
        warnings.push(`the series gauges are left out: ${(error as Error).message}`);
      });
      const { before: _before, ...told } = track;
      const { writeRunMetrics } = await import('../core/run/run-metrics.js');
      warnings.push(
        ...(await writeRunMetrics(settings, {
          command,
          endedAt: ctx.clock(),
          durationMs: performance.now() - started,
          exitCode: ctx.exitCodeOf(failure),
          ...told,
        })),
      );
      for (const warning of warnings) ctx.log.closing('warn', `mdget: warning: ${warning}`);
    }
  }
}
