/**
 * Fetches the files of one series a sync decided on, through the download commands' own run: files a
 * later window grew are resumed after their last rows (as --update does), the rest written whole. Each
 * file's ledger row is written once the file is in place, before the run counts it done.
 */
import { stat } from 'node:fs/promises';
import { MdgetError } from '../model/errors.js';
import type { Job, RunSettings } from '../plan/job.js';
import type { TransportSettings } from '../plan/transport-settings.js';
import { runJob } from '../run/run-job.js';
import type { BatchResult, CommittedOutput, JobDeps, RequestResult } from '../run/run-types.js';
import { fileFacts } from './file-facts.js';
import { formOf } from './file-form.js';
import { KeptFiles } from './kept-files.js';
import type { Ledger, LedgerRow } from './ledger.js';
import type { DatasetOutput, SeriesPlan } from './series-plan.js';
import type { Decision } from './sync-decisions.js';

/** Records files into the ledger: one row each, with its bytes, hash and rows as they are on disk. */
export class Recorder {
  /** Files written by this sync and recorded: what it says it fetched. */
  written = 0;

  constructor(
    private readonly ledger: Ledger,
    private readonly now: () => Date,
  ) {}

  /** Writes the row of `output`, its facts read from the file; `results` are the requests that wrote it. */
  async record(
    output: DatasetOutput,
    settings: RunSettings,
    results: readonly RequestResult[],
    provisional: boolean,
    rows?: number,
  ): Promise<LedgerRow> {
    // rows the run counted as it wrote them spare a second decompression of the file
    const shape = { format: settings.format, gzip: settings.gzip, header: settings.header };
    // a Parquet file has no lines to count: its rows are known only from the run
    const count = rows === undefined && settings.format !== 'parquet';
    const facts = await fileFacts(output.path, count ? shape : undefined);
    const { mtimeMs } = await stat(output.path);
    const row: LedgerRow = {
      path: output.key,
      series: output.series.name,
      symbol: output.symbol,
      ...(output.window.start === undefined ? {} : { windowStart: output.window.start }),
      ...(output.window.end === undefined ? {} : { windowEnd: output.window.end }),
      zone: output.zone,
      rows: rows ?? facts.rows ?? null,
      bytes: facts.bytes,
      sha256: facts.sha256,
      fetchedAt: this.now().toISOString(),
      provisional,
      requests: results.length,
      continuations: results.filter((r) => r.continuation).length,
      mtimeMs,
      form: formOf(output.series, settings),
    };
    this.ledger.put(row);
    if (results.length > 0) this.written++;
    return row;
  }
}

/**
 * Runs the fetches of one series: the files resumed and the files replaced as two jobs of the series' own
 * plan (a job's settings are shared by its files). Returns one BatchResult per job that ran.
 */
export async function fetchSeries(
  plan: SeriesPlan,
  decisions: readonly Decision[],
  recorder: Recorder,
  depsOfJob: () => JobDeps,
  transport: TransportSettings,
): Promise<BatchResult[]> {
  const byPath = new Map<string, DatasetOutput>();
  const modes = { replace: [] as DatasetOutput[], resume: [] as DatasetOutput[] };
  const kept = new KeptFiles();
  for (const decision of decisions) {
    if (decision.action !== 'fetch') continue;
    byPath.set(decision.output.path, decision.output);
    modes[decision.mode].push(decision.output);
    if (decision.hadRows) await kept.keep(decision.output.path, decision.hadRows);
  }
  const resumed = new Set(modes.resume.map((o) => o.path));
  const onCommitted = async (done: CommittedOutput) => {
    const output = byPath.get(done.path);
    if (!output) return;
    // a file written whole holds its requests' rows; one resumed (appended, or rewritten with its earlier
    // rows as a Parquet file is) is counted from the file
    const whole =
      !resumed.has(done.path) && done.results.every((r) => r.status === 'ok' || r.status === 'empty');
    const rows = whole ? done.results.reduce((sum, r) => sum + r.rows, 0) : undefined;
    // an empty answer for a window that had rows is the service failing, not the day emptied: the file
    // goes back as it was, and its row stays provisional
    if (rows === 0 && (await kept.restore(done.path)))
      throw new MdgetError(
        'MDGET_SERVICE',
        `${output.key}: the service sent no rows for a window that had ${kept.rowsOf(done.path)}: kept as it was, provisional`,
      );
    await recorder.record(output, plan.job.settings, done.results, done.provisional, rows);
  };
  const results: BatchResult[] = [];
  try {
    for (const mode of ['resume', 'replace'] as const) {
      const outputs = modes[mode];
      if (outputs.length === 0) continue;
      const deps = depsOfJob();
      if (deps.signal?.aborted) break;
      const job = jobFor(plan.job, outputs, mode, transport);
      results.push(await runJob(job, { ...deps, onCommitted }));
    }
  } finally {
    await kept.dropAll();
  }
  return results;
}

/** The series' job cut down to `outputs`: resumed as --update does, or replaced as --force does. */
function jobFor(
  job: Job,
  outputs: readonly DatasetOutput[],
  mode: 'replace' | 'resume',
  transport: TransportSettings,
): Job {
  const requests = outputs.flatMap((output) => output.requests);
  return {
    ...job,
    requests,
    settings: {
      ...job.settings,
      // the sync's transport, not the series': the dataset file cannot set it (series-options.ts)
      concurrency: transport.concurrency,
      transport,
      force: mode === 'replace',
      update: mode === 'resume',
      skipExisting: false,
    },
  };
}
