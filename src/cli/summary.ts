import type { BatchResult } from '../core/run/run-types.js';
import { formatBytes, formatCount, formatDuration, plural } from './progress-lines.js';
import type { RunTally } from './run-tally.js';

/** How standard output is named in messages: the way it is given on the command line. */
const STDOUT = '-';

/** What a run did, for the one line printed at its end. */
export interface RunSummary {
  /** File outputs written (each complete, renamed into place). */
  files: number;
  /** Outputs that failed, and outputs left alone (--skip-existing, up to date with --update). */
  failed: number;
  skipped: number;
  /** Data went to stdout. */
  toStdout: boolean;
  rows: number;
  /** Decoded bytes received, when told. */
  bytes?: number;
  elapsedMs: number;
  retries: number;
}

/**
 * The summary of a run from what its body returned: a batch's results per request, a reference command's
 * count of rows, or else what the progress events told.
 */
export function summaryOf(result: unknown, tally: RunTally, nowMs: number): RunSummary {
  const base = {
    elapsedMs: nowMs - tally.startedMs,
    retries: tally.retries,
    ...(tally.heard ? { bytes: tally.bytes() } : {}),
    rows: tally.rows(),
  };
  if (isBatchResult(result)) return { ...base, ...batchCounts(result) };
  if (isReferenceResult(result)) {
    const toStdout = result.output === undefined;
    return { ...base, rows: result.written, files: toStdout ? 0 : 1, failed: 0, skipped: 0, toStdout };
  }
  return { ...base, files: 0, failed: tally.finished.failed, skipped: 0, toStdout: false };
}

/** Counts per output: written when every request of it ended well, failed when any failed. */
function batchCounts(result: BatchResult): Omit<RunSummary, 'elapsedMs' | 'retries'> {
  const byOutput = new Map<string, Set<string>>();
  let rows = 0;
  let bytes = 0;
  for (const r of result.results) {
    const output = r.output ?? STDOUT;
    const statuses = byOutput.get(output) ?? new Set<string>();
    statuses.add(r.status);
    byOutput.set(output, statuses);
    if (r.status === 'ok' || r.status === 'empty') rows += r.rows;
    bytes += r.bytes;
  }
  let files = 0;
  let failed = 0;
  let skipped = 0;
  let toStdout = false;
  for (const [output, statuses] of byOutput) {
    if (statuses.has('failed')) failed += 1;
    else if ([...statuses].every((s) => s === 'skipped')) skipped += 1;
    else if (!statuses.has('not-run') && (statuses.has('ok') || statuses.has('empty'))) {
      if (output === STDOUT) toStdout = true;
      else files += 1;
    }
  }
  return { files, failed, skipped, toStdout, rows, bytes };
}

/**
 * The failed outputs of a batch that no progress event told of (a request refused or unreachable fails
 * before its body, and core sends no event then): "failed: <output>: <reason>", one per output, but for
 * the one whose reason the run's error line gives anyway.
 */
export function untoldFailures(
  result: unknown,
  told: ReadonlySet<string>,
): { output: string; line: string }[] {
  if (!isBatchResult(result)) return [];
  const lines = new Map<string, { output: string; line: string }>();
  const errorLine = result.failure?.message ?? '';
  for (const r of result.results) {
    const output = r.output ?? STDOUT;
    if (r.status !== 'failed' || told.has(output) || lines.has(output)) continue;
    if (r.error && errorLine.includes(r.error.message)) continue;
    lines.set(output, { output, line: `failed: ${output}${r.error ? `: ${r.error.message}` : ''}` });
  }
  return [...lines.values()];
}

/** "mdget: 5 files written, 1 failed · 12,345 rows · 1.2 MiB in 3.4 s · 1 retry" */
export function formatSummary(summary: RunSummary, fail: (text: string) => string): string {
  const what: string[] = [];
  if (summary.toStdout) what.push(`${plural(summary.rows, 'row', 'rows')} to stdout`);
  if (summary.files > 0 || !summary.toStdout) what.push(`${plural(summary.files, 'file', 'files')} written`);
  if (summary.failed > 0) what.push(fail(`${formatCount(summary.failed)} failed`));
  if (summary.skipped > 0) what.push(`${formatCount(summary.skipped)} skipped`);
  const figures = [what.join(', ')];
  if (!summary.toStdout) figures.push(plural(summary.rows, 'row', 'rows'));
  const time = `in ${formatDuration(summary.elapsedMs)}`;
  if (summary.bytes === undefined) figures.push(`${figures.pop()} ${time}`);
  else figures.push(`${formatBytes(summary.bytes)} ${time}`);
  if (summary.retries > 0) figures.push(plural(summary.retries, 'retry', 'retries'));
  return `mdget: ${figures.join(' · ')}`;
}

function isBatchResult(value: unknown): value is BatchResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as BatchResult).results);
}

function isReferenceResult(value: unknown): value is { written: number; output?: string } {
  const v = value as { written?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.written === 'number';
}
