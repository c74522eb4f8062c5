/**
 * The run of every download command: flags mapped to the core options, rules checked before the
 * configuration is read, then the plan; printed with --dry-run, else downloaded, with --report written.
 */

import { ioError, usageError } from '../../core/model/errors.js';
import { redactText, redactUrl } from '../../core/model/redact.js';
import { dateRangeCommand } from '../../core/plan/commands/date-range.js';
import { eodCommand } from '../../core/plan/commands/eod.js';
import { eventsCommand } from '../../core/plan/commands/events.js';
import { futuresOptionsCommand } from '../../core/plan/commands/futures-options.js';
import { minutesCommand } from '../../core/plan/commands/minutes.js';
import { ticksCommand } from '../../core/plan/commands/ticks.js';
import {
  batchOptionsOf,
  checkDownload,
  type DownloadCommand,
  type DownloadOptions,
  planDownload,
} from '../../core/plan/download.js';
import { plannedOutputs } from '../../core/plan/outputs.js';
import type { PlannedRequest } from '../../core/plan/planned-request.js';
import { windowTimes } from '../../core/plan/window-times.js';
import type { RunDeps } from '../../core/run/run-types.js';
import { commandSpec, type DownloadName } from '../command-table.js';
import { configFrom, type RunContext } from '../context.js';
import type { FlagsOf } from '../flags.js';
import type { Io } from '../io.js';
import { symbolsFrom } from '../symbols.js';
import { type CommonFlags, DOWNLOAD_MAPPERS, extraParamsFrom, type MapperInput } from './download-options.js';

/** The core command behind each download command of the CLI: its needs, rules and planner. */
export const CORE_COMMANDS: {
  [N in DownloadName]: DownloadCommand<ReturnType<(typeof DOWNLOAD_MAPPERS)[N]>>;
} = {
  ticks: ticksCommand,
  minutes: minutesCommand,
  eod: eodCommand,
  events: eventsCommand,
  daterange: dateRangeCommand,
  futopts: futuresOptionsCommand,
};

/** The query name of each command's positional arguments, which --param may not set a second time. */
const POSITIONAL = { futopts: 'root', events: 'symbols', daterange: 'symbols' } as const;

/** Runs download command `name` end to end; failures are thrown as MdgetErrors for main to map. */
export async function runDownloadCommand<N extends DownloadName>(
  name: N,
  args: readonly (string | string[] | undefined)[],
  flags: CommonFlags & FlagsOf<N>,
  ctx: RunContext,
): Promise<void> {
  const spec = commandSpec(name);
  const positional = (POSITIONAL as Partial<Record<DownloadName, string>>)[name] ?? 'symbol';
  if (flags.symbolsFile === '-' && flags.passwordStdin) {
    throw usageError(
      '--symbols-file - and --password-stdin both want standard input: use a file for one of them',
    );
  }
  const extra = extraParamsFrom(flags.param, spec?.params ?? [], positional);
  const what = name === 'futopts' ? 'root' : 'symbol';
  const input: MapperInput = {
    symbols: await symbolsFrom(toList(args.at(-1)), flags.symbolsFile, ctx.io, what),
    now: ctx.now,
    ...(name === 'daterange' && typeof args[0] === 'string' ? { database: args[0] } : {}),
  };
  const mapper = DOWNLOAD_MAPPERS[name] as (flags: FlagsOf<N>, input: MapperInput) => DownloadOptions;
  const options: DownloadOptions = { ...mapper(flags, input), ...(extra.length > 0 ? { extra } : {}) };
  const command = CORE_COMMANDS[name] as DownloadCommand<DownloadOptions>;
  checkDownload(command, options); // usage errors (exit 2) before configuration errors (exit 3)
  const config = await configFrom(flags, ctx);
  const report = flags.report === undefined || flags.dryRun ? undefined : await import('../report.js');
  if (report && flags.report !== undefined) await report.checkReportPath(flags.report);
  if (flags.tempDir !== undefined && !flags.dryRun) await checkTempDir(flags.tempDir);
  const plans = planDownload(command, options, { config, now: ctx.now });
  const batch = batchOptionsOf(command, options, config);
  if (flags.dryRun) {
    // the run's own checks before any request (exit 2); what the file system says is left to the run
    plannedOutputs(plans, batch);
    await printPlans(plans, options.sourceTimeZone, Boolean(flags.quiet), ctx);
    return;
  }
  // Loaded here, not at the top: undici, the writers and Node's stream modules, which --help, --dry-run and
  // usage errors do not need.
  const [{ runBatch }, { withRunDeps }] = await Promise.all([
    import('../../core/run/run-job.js'),
    import('../run-deps.js'),
  ]);
  const result = await withRunDeps(flags, ctx, batch.output, (deps) =>
    runBatch(plans, batch, withShortNotes(deps)),
  );
  if (report && flags.report !== undefined)
    await report.writeReport(flags.report, name, result.results, ctx.secrets);
  if (result.failure && !result.stdoutClosed) throw result.failure;
}

/**
 * --dry-run: each request's redacted URL alone on its line of stdout, so `mdget … --dry-run | xargs -n1
 * curl -O` and `wc -l` keep working (a tab-separated suffix would reach curl as more arguments). The window
 * of each request, in the market's wall clock and in UTC (issue 13), goes to stderr just before its URL,
 * the way curl -v and rclone --dry-run keep commentary off the data stream; -q leaves it out. A reader that
 * goes away (`| head -1`) ends the listing, stderr included.
 */
async function printPlans(
  plans: readonly PlannedRequest[],
  sourceZone: string | undefined,
  quiet: boolean,
  ctx: RunContext,
): Promise<void> {
  const { io, secrets } = ctx;
  const lines = new PlanLines(io);
  try {
    for (const [i, plan] of plans.entries()) {
      // a stream's write errors (EPIPE) arrive on a later tick
      if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
      if (lines.closed) return;
      const times = quiet ? undefined : windowTimes(plan, sourceZone);
      if (times !== undefined) lines.write('stderr', `${io.color.dim(`mdget: ${plan.symbol} ${times}`)}\n`);
      lines.write('stdout', `${redactText(redactUrl(plan.url), secrets)}\n`);
    }
  } finally {
    lines.done();
  }
}

/**
 * A dry run's lines, written at once to the descriptors where the Io can (Node's stdout and stderr streams
 * cost a pipe its stream modules at start-up, issue 9); from the first write that would block, through the
 * streams, in order. A reader gone away (EPIPE) closes the listing.
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

/** Refuses a --temp-dir that is not a directory (no request sent). */
async function checkTempDir(path: string): Promise<void> {
  const { stat } = await import('node:fs/promises');
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory())
    throw usageError(`--temp-dir ${path}: not a directory (give an existing directory)`);
}

/** The most symbols of a comma list a note names; the rest are counted (issue 10: events of 2,000 bytes). */
export const NOTE_SYMBOLS = 3;

/** A note with every comma list of more than five symbols shortened to its first three and a count. */
export function shortenLists(message: string): string {
  return message.replace(/[^\s,]+(?:,[^\s,]+){5,}/g, (list) => {
    const items = list.split(',');
    return `${items.slice(0, NOTE_SYMBOLS).join(',')},… (${items.length} symbols)`;
  });
}

function withShortNotes(deps: RunDeps): RunDeps {
  const { onNote } = deps;
  return onNote ? { ...deps, onNote: (message) => onNote(shortenLists(message)) } : deps;
}
