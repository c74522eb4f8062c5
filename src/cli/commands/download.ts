/**
 * The run of every download command: flags mapped to the library's options, resolved into a job by the
 * library's own resolve (every rule and default there, named in flags); printed with --dry-run, else run,
 * with --report written.
 */

import { type Config, requireConfig } from '../../core/model/config.js';
import { ioError, usageError } from '../../core/model/errors.js';
import type { DownloadName, DownloadOptions } from '../../core/model/options.js';
import { redactText, redactUrl } from '../../core/model/redact.js';
import type { Job } from '../../core/plan/job.js';
import { urlOf } from '../../core/plan/planned-request.js';
import { resolve } from '../../core/plan/resolve.js';
import { describeTransport } from '../../core/plan/transport-settings.js';
import { windowTimes } from '../../core/plan/window-times.js';
import { runTotals } from '../../core/run/run-totals.js';
import type { BatchResult, RunDeps } from '../../core/run/run-types.js';
import { refuseBinaryOnTerminal } from '../binary-output.js';
import { configFrom, type RunContext } from '../context.js';
import { flagNames } from '../flag-names.js';
import type { FlagsOf } from '../flags.js';
import type { Io } from '../io.js';
import { type MetricsTrack, metricsSettingsOf, withMetrics } from '../metrics.js';
import { symbolsFrom } from '../symbols.js';
import { type CommonFlags, DOWNLOAD_MAPPERS, type MapperInput } from './download-options.js';

/**
 * Runs download command `name` end to end, its metrics written however it ends (--metrics-file); failures
 * are thrown as MdgetErrors for main to map.
 */
export async function runDownloadCommand<N extends DownloadName>(
  name: N,
  args: readonly (string | string[] | undefined)[],
  flags: CommonFlags & FlagsOf<N>,
  ctx: RunContext,
): Promise<void> {
  // a dry run sends nothing: it is no run a monitor should count
  const metrics = flags.dryRun ? undefined : metricsSettingsOf(flags, ctx);
  await withMetrics(metrics, name, ctx, (track) => download(name, args, flags, ctx, track));
}

async function download<N extends DownloadName>(
  name: N,
  args: readonly (string | string[] | undefined)[],
  flags: CommonFlags & FlagsOf<N>,
  ctx: RunContext,
  track: MetricsTrack,
): Promise<void> {
  if (flags.symbolsFile === '-' && flags.passwordStdin) {
    throw usageError(
      '--symbols-file - and --password-stdin both want standard input: use a file for one of them',
    );
  }
  const input: MapperInput = {
    symbols: await symbolsFrom(
      toList(args.at(-1)),
      flags.symbolsFile,
      ctx.io,
      name === 'futopts' ? 'root' : 'symbol',
    ),
    ...(name === 'daterange' && typeof args[0] === 'string' ? { database: args[0] } : {}),
  };
  const mapper = DOWNLOAD_MAPPERS[name] as (flags: FlagsOf<N>, input: MapperInput) => DownloadOptions<N>;
  const options = mapper(flags, input);
  const config = await configFrom(flags, ctx);
  const job = resolve(name, options, { config, now: ctx.now, names: flagNames });
  // usage errors (exit 2) come before configuration errors (exit 3); a dry run signs nothing, so it
  // needs the base URLs only
  requireConfig(config, flags.dryRun ? job.needs.filter((need) => need !== 'credentials') : job.needs);
  const binary = job.settings.format === 'parquet' ? 'parquet' : job.settings.gzip ? 'gzip' : undefined;
  refuseBinaryOnTerminal(binary, options.output, ctx.io);
  const report = flags.report === undefined || flags.dryRun ? undefined : await import('../report.js');
  if (report && flags.report !== undefined) await report.checkReportPath(flags.report);
  if (flags.tempDir !== undefined && !flags.dryRun) await checkTempDir(flags.tempDir);
  if (!flags.quiet) for (const warning of job.warnings) ctx.log.warn(`mdget: warning: ${warning}`);
  if (flags.dryRun) {
    // an update's dry run shows each symbol's real resume window: the file's memory is read, not written
    const shown = job.settings.update ? await updatedJobOf(job, config) : job;
    await printJob(shown, config, Boolean(flags.quiet), ctx);
    return;
  }
  // Loaded here, not at the top: undici, the writers, Node's stream and crypto modules, which --help,
  // --dry-run and usage errors do not need.
  const [{ runJob }, { withRunDeps }, { sidecarMemory }] = await Promise.all([
    import('../../core/run/run-job.js'),
    import('../run-deps.js'),
    import('../../core/sink/file-memory.js'),
  ]);
  const result = await withRunDeps(
    flags,
    ctx,
    options.output === undefined,
    job.settings.transport,
    async (deps) => {
      const done = await runJob(job, {
        ...withShortNotes({ ...deps, names: flagNames, memory: sidecarMemory }),
        config,
      });
      if (job.settings.skipExisting) noteSkipped(done, Boolean(flags.verbose), deps.onNote);
      return done;
    },
  );
  track.totals = runTotals(result);
  if (report && flags.report !== undefined) {
    const error = result.stdoutClosed ? undefined : result.failure;
    const run = { entries: result.results, totals: report.totalsOf(result), ...(error ? { error } : {}) };
    await report.writeReport(flags.report, name, run, ctx);
  }
  if (result.failure && !result.stdoutClosed) throw result.failure;
}

/** The requests an --update's dry run would send: each file's memory read, nothing written. */
async function updatedJobOf(job: Job, config: Config): Promise<Job> {
  const [{ updatedJob }, { sidecarMemory }] = await Promise.all([
    import('../../core/run/run-job.js'),
    import('../../core/sink/file-memory.js'),
  ]);
  return updatedJob(job, sidecarMemory, flagNames, config);
}

/**
 * --dry-run: each request's URL alone on its line of stdout, signed as it would be sent and redacted (with
 * no credentials configured, the URL without them), so `mdget … --dry-run | xargs -n1
 * curl -O` and `wc -l` keep working (a tab-separated suffix would reach curl as more arguments). The window
 * of each request, in the market's wall clock and in UTC, and its output go to stderr just before its URL,
 * the way curl -v and rclone --dry-run keep commentary off the data stream; -q leaves them out, and the
 * transport line that comes first (concurrency, retries, timeout, rate, sockets). A reader that goes away
 * (`| head -1`) ends the listing, stderr included.
 */
async function printJob(job: Job, config: Config, quiet: boolean, ctx: RunContext): Promise<void> {
  const { io, secrets } = ctx;
  const lines = new PlanLines(io);
  try {
    if (!quiet)
      lines.write(
        'stderr',
        `${io.color.dim(`mdget: transport: ${describeTransport(job.settings.transport)}`)}\n`,
      );
    for (const [i, plan] of job.requests.entries()) {
      // a stream's write errors (EPIPE) arrive on a later tick
      if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
      if (lines.closed) return;
      if (!quiet) {
        const times = windowTimes(plan);
        const output = plan.output.kind === 'file' ? ` → ${plan.output.path}` : '';
        lines.write(
          'stderr',
          `${io.color.dim(`mdget: ${plan.symbol}${times ? ` ${times}` : ''}${output}`)}\n`,
        );
      }
      lines.write('stdout', `${redactText(redactUrl(urlOf(plan, config)), secrets)}\n`);
    }
    if (
      !quiet &&
      !lines.closed &&
      job.requests.some((plan) => plan.series && plan.series.userLimit === undefined)
    ) {
      const note =
        job.settings.maxRows === undefined
          ? 'the run may add requests: continuations for windows the service cuts short, and probes for a cap it does not state (state it with --max-rows <n> and no probe is sent)'
          : `the run may add continuations for windows that reach the cap of ${job.settings.maxRows} rows`;
      lines.write('stderr', `${io.color.dim(`mdget: ${note}`)}\n`);
    }
  } finally {
    lines.done();
  }
}

/**
 * A dry run's lines, written at once to the descriptors where the Io can (Node's stdout and stderr streams
 * cost a pipe its stream modules at start-up: bench/README.md#start-up); from the first write that would
 * block, through the streams, in order. A reader gone away (EPIPE) closes the listing.
 */
class PlanLines {
  closed = false;
  private streamed = false;
  private readonly onError = () => {
    this.closed = true;
  };

  constructor(private readonly io: Io) {}

  write(to: 'stdout' | 'stderr', text: string): void {
    let rest: string | Buffer = text;
    if (!this.streamed && this.io.writeSync) {
      try {
        rest = this.io.writeSync(to, text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EPIPE') {
          this.closed = true;
          return;
        }
        // A full disk behind `> plan.txt` is exit 6 in one line, as stdout's stream error is (main.ts); the
        // window lines on stderr are commentary, and a stderr that cannot take them loses them.
        if (to === 'stdout') throw ioError(error, 'standard output');
        return;
      }
      if (rest.length === 0) return;
    }
    if (!this.streamed) {
      this.streamed = true;
      this.io.stdout.once('error', this.onError);
    }
    this.io[to].write(rest);
  }

  done(): void {
    if (this.streamed) this.io.stdout.removeListener('error', this.onError);
  }
}

const toList = (arg: string | string[] | undefined): string[] =>
  arg === undefined ? [] : typeof arg === 'string' ? [arg] : arg;

/** Refuses a --temp-dir that is not a directory, or one no spool file can be made in (no request sent). */
async function checkTempDir(path: string): Promise<void> {
  const [{ stat }, { checkWritableDirectory }] = await Promise.all([
    import('node:fs/promises'),
    import('../../core/sink/writable.js'),
  ]);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory())
    throw usageError(`--temp-dir ${path}: not a directory (give an existing directory)`);
  await checkWritableDirectory(path, `--temp-dir ${path}`);
}

/**
 * The most symbols of a comma list a note names; the rest are counted (an events list can fill 2,000 bytes).
 */
const NOTE_SYMBOLS = 3;

/** A note with every comma list of more than five symbols shortened to its first three and a count. */
function shortenLists(message: string): string {
  return message.replace(/[^\s,]+(?:,[^\s,]+){5,}/g, (list) => {
    const items = list.split(',');
    return `${items.slice(0, NOTE_SYMBOLS).join(',')},… (${items.length} symbols)`;
  });
}

/** --skip-existing: one line for the files left alone; -v names each. */
function noteSkipped(
  result: BatchResult,
  verbose: boolean,
  note: ((message: string) => void) | undefined,
): void {
  const skipped = [
    ...new Set(result.results.flatMap((r) => (r.status === 'skipped' && r.output ? [r.output] : []))),
  ];
  if (skipped.length === 0 || !note) return;
  if (verbose) for (const path of skipped) note(`skipped ${path}: it exists`);
  const files = skipped.length === 1 ? '1 existing file' : `${skipped.length} existing files`;
  note(`skipped ${files} (--skip-existing)${verbose ? '' : '; -v lists them'}`);
}

function withShortNotes(deps: RunDeps): RunDeps {
  const { onNote } = deps;
  return onNote ? { ...deps, onNote: (message, about) => onNote(shortenLists(message), about) } : deps;
}
