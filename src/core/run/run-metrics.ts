/**
 * A run's metrics file (docs/recipes.md#monitoring): written at the end of every run, success or failure,
 * by the CLI and by the library alike, and replaced by rename, as node_exporter's textfile collector needs.
 * A metrics file never fails a run: what goes wrong with it comes back as warnings.
 */
import { open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { reasonOf } from '../model/errors.js';
import { tempPathFor } from '../sink/atomic-file.js';
import { type MetricFamily, renderMetrics, sampleValue } from '../sink/metrics-text.js';
import type { RunTotals } from './run-totals.js';

/** Where a run's metrics go: a file (e.g. in the textfile collector's directory) and its job label. */
export interface MetricsSettings {
  /** The file, replaced atomically; its directory must exist. */
  file: string;
  /** The `mdget_job` label (default: the dataset file for a sync, else the file's name without extension). */
  job?: string;
}

/** How a run ended, for its metrics. */
export interface RunOutcome {
  /** The command: ticks, minutes, …, sync. */
  command: string;
  /** The dataset file of a sync: the default job label. */
  datasetFile?: string;
  /** When the run ended. */
  endedAt: Date;
  durationMs: number;
  /** The exit status (the CLI's; from the library 0 for success, 1 for a failure). */
  exitCode: number;
  /** What it did; none when it failed before a request. */
  totals?: RunTotals;
  /** More families with the run's labels (the per-series gauges of a sync). */
  extra?: (labels: Readonly<Record<string, string>>) => MetricFamily[];
}

/** The metric that says when a run last succeeded, carried over from the previous file by a failed run. */
const LAST_SUCCESS = 'mdget_last_success_timestamp_seconds';

/** The labels every sample of a run carries: the command, and the job the file is for. */
export function runLabels(settings: MetricsSettings, outcome: Pick<RunOutcome, 'command' | 'datasetFile'>) {
  const job = settings.job ?? outcome.datasetFile ?? basename(settings.file, extname(settings.file));
  return { command: outcome.command, mdget_job: job };
}

/** The families of a run; `lastSuccess` in seconds (0: never, as far as the file knows). */
function runFamilies(
  labels: Readonly<Record<string, string>>,
  outcome: RunOutcome,
  lastSuccess: number,
): MetricFamily[] {
  const one = (value: number) => [{ labels, value }];
  const seconds = (date: Date) => Math.round(date.getTime() / 1000);
  const totals = outcome.totals;
  const counter = (name: string, help: string, value: number | undefined): MetricFamily => ({
    name,
    help: `${help}, in the last run.`,
    type: 'counter',
    samples: one(value ?? 0),
  });
  return [
    gauge(
      'mdget_last_run_timestamp_seconds',
      'When the last run ended, in Unix time.',
      one(seconds(outcome.endedAt)),
    ),
    gauge('mdget_last_run_exit_code', 'The exit status of the last run (0: success).', one(outcome.exitCode)),
    gauge(
      'mdget_last_run_duration_seconds',
      'How long the last run took.',
      one(Math.round(outcome.durationMs) / 1000),
    ),
    gauge(LAST_SUCCESS, 'When a run last succeeded, in Unix time (0: never).', one(lastSuccess)),
    counter(
      'mdget_requests_total',
      'HTTP requests sent, retries and continuations included',
      totals?.requests,
    ),
    counter('mdget_retries_total', 'Requests tried again after a network error, 429 or 5xx', totals?.retries),
    counter('mdget_rows_written_total', 'Rows written', totals?.rows),
    counter('mdget_bytes_written_total', 'Decoded bytes received and written', totals?.bytes),
    counter('mdget_files_written_total', 'Files written (renamed into place)', totals?.files),
    counter('mdget_failures_total', 'Outputs that failed', totals?.failed),
    ...(outcome.extra?.(labels) ?? []),
  ];
}

const gauge = (name: string, help: string, samples: MetricFamily['samples']): MetricFamily => ({
  name,
  help,
  type: 'gauge',
  samples,
});

/** A previous file larger than this is no metrics file of mdget's: its success time is not looked for. */
const PREVIOUS_MAX_BYTES = 1024 * 1024;

/**
 * Writes the run's metrics to `settings.file` by rename; returns warnings, one per problem: a previous file
 * it could not read the last success from, a file it could not write.
 */
export async function writeRunMetrics(settings: MetricsSettings, outcome: RunOutcome): Promise<string[]> {
  const warnings: string[] = [];
  let lastSuccess = 0;
  if (outcome.exitCode === 0) lastSuccess = Math.round(outcome.endedAt.getTime() / 1000);
  else {
    const previous = await previousSuccess(settings.file);
    if ('value' in previous) lastSuccess = previous.value;
    else if (previous.damaged)
      warnings.push(`metrics file ${settings.file}: ${previous.damaged}; ${LAST_SUCCESS} written as 0`);
  }
  const text = renderMetrics(runFamilies(runLabels(settings, outcome), outcome, lastSuccess));
  const temp = tempPathFor(settings.file);
  try {
    await writeFile(temp, text);
    await rename(temp, settings.file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    warnings.push(`cannot write metrics file ${settings.file}: ${reasonOf(error)}`);
  }
  return warnings;
}

/** The last success a previous file records: none without a file, a reason when it cannot be read. */
async function previousSuccess(path: string): Promise<{ value: number } | { damaged?: string }> {
  let text: string;
  try {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      if (size > PREVIOUS_MAX_BYTES) return { damaged: `larger than ${PREVIOUS_MAX_BYTES} bytes` };
      text = await file.readFile('utf8');
    } finally {
      await file.close();
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return {};
    return { damaged: `cannot be read (${reasonOf(error)})` };
  }
  const found = sampleValue(text, LAST_SUCCESS);
  return 'value' in found && found.value < 0 ? { damaged: `${LAST_SUCCESS} is negative` } : found;
}

/** What a library run tells of itself as it goes, for its metrics. */
export type RunTrack = Partial<Pick<RunOutcome, 'totals' | 'extra'>> & { failed?: boolean };

/**
 * The library's download and sync with `metrics` set: runs `body`, then writes the metrics however it
 * ended; the library has no exit status, so a failure (thrown, or told in `track`) is written as 1.
 * Warnings go to `onWarning`: a metrics file never fails a run.
 */
export async function withRunMetrics<T>(
  settings: MetricsSettings | undefined,
  run: Pick<RunOutcome, 'command' | 'datasetFile'> & { clock: () => Date },
  onWarning: ((message: string) => void) | undefined,
  body: (track: RunTrack) => Promise<T>,
): Promise<T> {
  if (!settings) return body({});
  const startedMs = Date.now();
  const track: RunTrack = {};
  let thrown = false;
  try {
    return await body(track);
  } catch (error) {
    thrown = true;
    throw error;
  } finally {
    const { failed, ...told } = track;
    const warnings = await writeRunMetrics(settings, {
      command: run.command,
      ...(run.datasetFile === undefined ? {} : { datasetFile: run.datasetFile }),
      endedAt: run.clock(),
      durationMs: Date.now() - startedMs,
      exitCode: thrown || failed ? 1 : 0,
      ...told,
    });
    for (const warning of warnings) onWarning?.(`warning: ${warning}`);
  }
}
