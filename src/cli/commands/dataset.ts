/**
 * `mdget sync`, `mdget status` and `mdget verify`: the dataset file read, the library's run called, and
 * what it found printed: a line per file with --dry-run, a table or --json for status, a line per finding
 * for verify. docs/dataset.md is the contract.
 */
import { relative } from 'node:path';
import type { Dataset } from '../../core/dataset/dataset.js';
import type { DatasetStatus } from '../../core/dataset/status.js';
import { MdgetError, usageError } from '../../core/model/errors.js';
import { redactText } from '../../core/model/redact.js';
import { describeTransport, transportSettingsOf } from '../../core/plan/transport-settings.js';
import { runTotals } from '../../core/run/run-totals.js';
import { configFrom, type RunContext } from '../context.js';
import { exitCodeFor } from '../exit-codes.js';
import type { FlagsOf } from '../flags.js';
import { type MetricsTrack, metricsSettingsOf, withMetrics } from '../metrics.js';
import { printable } from '../progress-lines.js';
import { transportOptionsFrom } from './download-options.js';

/** The dataset file's absolute path: the argument, else mdget.toml, in the working directory. */
async function datasetPath(file: string | undefined, ctx: RunContext): Promise<string> {
  const { DEFAULT_DATASET_FILE } = await import('../../core/dataset/dataset-file.js');
  const { resolve } = await import('node:path');
  return resolve(ctx.io.cwd, file ?? DEFAULT_DATASET_FILE);
}

async function load(file: string | undefined, ctx: RunContext): Promise<Dataset> {
  const { readDataset } = await import('../../core/dataset/dataset-file.js');
  return readDataset(await datasetPath(file, ctx));
}

const shown = (dataset: Dataset, path: string) => relative(dataset.root, path) || path;

/** `mdget sync [file]`, its metrics written however it ends (--metrics-file). */
export async function runSyncCommand(
  file: string | undefined,
  flags: FlagsOf<'sync'>,
  ctx: RunContext,
): Promise<void> {
  // a dry run sends nothing: it is no run a monitor should count
  const metrics = flags.dryRun ? undefined : metricsSettingsOf(flags, ctx);
  await withMetrics(metrics, 'sync', ctx, (track) => sync(file, flags, ctx, track));
}

async function sync(
  file: string | undefined,
  flags: FlagsOf<'sync'>,
  ctx: RunContext,
  track: MetricsTrack,
): Promise<void> {
  track.datasetFile = await datasetPath(file, ctx);
  const dataset = await load(file, ctx);
  // the gauges read the ledgers as the run leaves them, whatever stopped it
  track.before = async () => {
    const [{ datasetStatus }, { seriesFamilies }] = await Promise.all([
      import('../../core/dataset/status.js'),
      import('../../core/dataset/series-metrics.js'),
    ]);
    const status = await datasetStatus(dataset, ctx.clock());
    track.extra = (labels) => seriesFamilies(status, labels);
  };
  const needs = requirementsOf(dataset);
  const config = await configFrom(flags, ctx, flags.dryRun ? [] : needs);
  const report = flags.report === undefined || flags.dryRun ? undefined : await import('../report.js');
  if (report && flags.report !== undefined) await report.checkReportPath(flags.report);
  const { planSync, runSync } = await import('../../core/dataset/sync.js');
  const options = {
    ...(flags.repair ? { repair: true } : {}),
    ...(flags.shard ? { shard: flags.shard } : {}),
    ...(flags.wait === undefined ? {} : { waitMs: flags.wait }),
    ...transportOptionsFrom(flags),
  };
  const transport = transportSettingsOf(options);
  const now = ctx.clock;
  if (flags.dryRun) {
    // a dry run sends nothing: its plan needs no credentials, and no base URL
    const planned = await planSync(dataset, options, { config, now });
    for (const f of planned.fetches)
      ctx.io.stdout.write(`${f.reason}\t${f.series}\t${shown(dataset, f.path)}\n`);
    if (!flags.quiet) {
      ctx.log.info(ctx.io.color.dim(`mdget: transport: ${describeTransport(transport)}`));
      const adopted = planned.adopted.length > 0 ? `, ${planned.adopted.length} to record as they are` : '';
      ctx.log.closing(
        'info',
        `mdget: ${planned.fetches.length} files to fetch, ${planned.complete} complete${adopted} (dry run: nothing sent)`,
      );
    }
    return;
  }
  const { withRunDeps } = await import('../run-deps.js');
  // a dataset holds many windows without records (weekends, holidays): counted, listed with -v
  let empty = 0;
  const result = await withRunDeps(flags, ctx, false, transport, (deps) => {
    const { onNote } = deps;
    const note: typeof onNote = (message, about) => {
      if (flags.verbose || !message.startsWith('no records for ')) onNote?.(message, about);
      else empty++;
    };
    return runSync(dataset, options, { ...deps, onNote: note, config, now });
  });
  track.totals = runTotals(result);
  // an output error (a full disk) stopped everything: main's one line says it; one failure is main's
  // line too, and a partial sync names each file that failed
  const stopped = result.failure?.code === 'MDGET_IO';
  if (!flags.quiet && !stopped) {
    const named = result.failure?.code === 'MDGET_PARTIAL' || result.failed.length > 1;
    for (const f of named ? result.failed : [])
      ctx.log.error(
        `mdget: ${printable(redactText(`${shown(dataset, f.path)}: ${f.error.message}`, ctx.secrets))}`,
        { code: f.error.code, series: f.series, file: f.path },
      );
    const refreshed = result.reference.filter((r) => r.status === 'not-modified').length;
    ctx.log.closing(
      'info',
      `mdget: sync: ${result.written} files fetched, ${result.complete} complete` +
        `${result.adopted.length > 0 ? `, ${result.adopted.length} recorded as found` : ''}` +
        `${refreshed > 0 ? `, ${refreshed} reference unchanged (304)` : ''}` +
        `${empty > 0 ? `, ${empty} with no records (-v lists them)` : ''}` +
        `${result.failed.length > 0 ? `, ${result.failed.length} failed` : ''}`,
      { rows: track.totals.rows, bytes: track.totals.bytes },
    );
  }
  if (report && flags.report !== undefined) {
    const error = result.failure;
    const run = { entries: result.results, totals: report.totalsOf(result), ...(error ? { error } : {}) };
    await report.writeReport(flags.report, 'sync', run, ctx);
  }
  if (result.failure) throw result.failure;
}

/** The settings a sync of `dataset` needs: credentials and the bases of the kinds it holds. */
function requirementsOf(dataset: Dataset) {
  const needs = new Set<'credentials' | 'historical' | 'futuresOptions' | 'extras' | 'instruments'>();
  for (const s of dataset.series) {
    needs.add('credentials');
    needs.add(s.kind === 'futopts' ? 'futuresOptions' : 'historical');
  }
  for (const r of dataset.reference) {
    needs.add('extras');
    if (r.kind === 'instruments') needs.add('instruments');
  }
  return [...needs];
}

/** `mdget status [file]`. */
export async function runStatusCommand(
  file: string | undefined,
  flags: FlagsOf<'status'>,
  ctx: RunContext,
): Promise<void> {
  if (flags.metricsJob !== undefined && !flags.metrics)
    throw usageError('--metrics-job names the job of the gauges: give --metrics too');
  const dataset = await load(file, ctx);
  const { datasetStatus } = await import('../../core/dataset/status.js');
  const status = await datasetStatus(dataset, ctx.now);
  const out = ctx.io.stdout;
  if (flags.metrics) {
    out.write(await statusMetrics(status, await datasetPath(file, ctx), flags.metricsJob));
    return;
  }
  if (flags.json) {
    out.write(`${JSON.stringify(status, null, 2)}\n`);
    return;
  }
  const head = ['series', 'kind', 'planned', 'complete', 'provisional', 'missing', 'failed', 'rows', 'bytes'];
  const rows = status.series.map((s) => [
    s.name,
    s.kind,
    ...[s.planned, s.complete, s.provisional, s.missing, s.failed, s.rows, s.bytes].map(String),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')}\n`;
  out.write(line(head));
  for (const r of rows) out.write(line(r));
  const last = status.lastSync;
  out.write(
    last
      ? `last sync: ${last.startedAt}${last.endedAt ? `, ended ${last.endedAt}` : ', did not end'}, exit ${last.outcome === undefined ? '-' : last.outcome === 'ok' ? 0 : exitCodeFor(last.outcome)}\n`
      : 'last sync: none\n',
  );
  out.write(status.complete ? 'complete\n' : 'incomplete: mdget sync fetches what is missing\n');
}

/** `status --metrics`: the per-series gauges sync writes, labelled as a status of the dataset file. */
async function statusMetrics(status: DatasetStatus, datasetFile: string, job: string | undefined) {
  const [{ runLabels }, { renderMetrics }, { seriesFamilies }] = await Promise.all([
    import('../../core/run/run-metrics.js'),
    import('../../core/sink/metrics-text.js'),
    import('../../core/dataset/series-metrics.js'),
  ]);
  const labels = runLabels(
    { file: datasetFile, ...(job ? { job } : {}) },
    { command: 'status', datasetFile },
  );
  return renderMetrics(seriesFamilies(status, labels));
}

/** `mdget verify [file]`: exit 8 when anything is found. */
export async function runVerifyCommand(
  file: string | undefined,
  flags: FlagsOf<'verify'>,
  ctx: RunContext,
): Promise<void> {
  const dataset = await load(file, ctx);
  const { verifyDataset } = await import('../../core/dataset/verify.js');
  const result = await verifyDataset(dataset);
  const out = ctx.io.stdout;
  if (flags.json) out.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    for (const f of result.findings) out.write(`${f.kind}\t${f.path}\t${f.detail}\n`);
    if (!flags.quiet)
      ctx.log.closing(
        'info',
        `mdget: verify: ${result.checked} files checked, ${result.findings.length === 0 ? 'nothing found' : `${result.findings.length} findings`}`,
      );
  }
  if (result.findings.length > 0)
    throw new MdgetError(
      'MDGET_FINDINGS',
      `verify found ${result.findings.length} things to look at (above)`,
    );
}
