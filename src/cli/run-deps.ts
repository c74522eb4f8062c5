import { redactText } from '../core/model/redact.js';
import { type TransportSettings, transportSettingsOf } from '../core/plan/transport-settings.js';
import type { RunDeps } from '../core/run/run-types.js';
import type { RetryInfo } from '../core/run/scheduler.js';
import { DescriptorWritable } from '../core/sink/descriptor-writable.js';
import { transportOptionsFrom } from './commands/download-options.js';
import type { Flags, RunContext } from './context.js';
import type { LogFields } from './log.js';
import { createProgress, progressMode } from './progress.js';
import { printable } from './progress-lines.js';
import { formatSummary, summaryOf, untoldFailures } from './summary.js';

/** The transport of a command that resolves no job (exchanges, instruments, sync): its flags as given. */
export const transportFromFlags = (flags: Flags): TransportSettings =>
  transportSettingsOf(transportOptionsFrom(flags));

/**
 * Runs `body` with the plumbing every fetching command shares: the transport built from the run's
 * `settings` (one dispatcher, destroyed afterwards; the retry policy; the rate limiter), and on stderr,
 * unless --quiet: notes, the progress display when wanted (retries as a status line), requests and
 * retries as lines with --verbose, and a summary line at the end when someone watches; every message
 * redacted with the run's secrets.
 */
export async function withRunDeps<T>(
  flags: Flags,
  ctx: RunContext,
  toStdout: boolean,
  settings: TransportSettings,
  body: (deps: RunDeps) => Promise<T>,
): Promise<T> {
  const { io } = ctx;
  const quiet = Boolean(flags.quiet);
  const warning = ctx.transport?.httpWarning;
  if (warning && !quiet) io.stderr.write(`${io.color.yellow(`mdget: ${warning}`)}\n`);
  const mode = progressMode(io, flags.progress as boolean | undefined, quiet, toStdout && io.stdoutIsTTY);
  const display = await createProgress(io, mode, {
    retries: settings.retries,
    signal: ctx.signal,
    log: ctx.log,
  });
  const log = ctx.log.through(display.log);
  const note = (message: string, fields?: LogFields, level: 'info' | 'warn' = 'info') => {
    if (!quiet) log[level](io.color.dim(`mdget: ${printable(redactText(message, ctx.secrets))}`), fields);
  };
  const { openTransport } = await import('../core/http/transport.js');
  const transport = openTransport(
    settings,
    ctx.transport ? { proxy: ctx.transport.proxy, ca: ctx.transport.ca } : {},
  );
  let result: T;
  try {
    result = await body({
      dispatcher: transport.dispatcher,
      signal: ctx.signal,
      retry: transport.retry,
      limiter: transport.limiter,
      secrets: ctx.secrets,
      stdout:
        io.stdoutFd !== undefined && !io.stdoutIsTTY
          ? new DescriptorWritable(io.stdoutFd, () => io.stdout)
          : io.stdout,
      onNote: (message, about) => note(message, about),
      onPlan: display.onPlan,
      onProgress: display.onProgress,
      ...(flags.verbose ? { onRequest: (url: string) => note(`GET ${url}`, { url }) } : {}),
      onRetry: (r: RetryInfo) => {
        display.onRetry(r);
        // On a terminal the status line shows it while it waits; a log keeps it as a line.
        if (flags.verbose || display.mode === 'lines' || ctx.log.format === 'json')
          note(`retry ${r.attempt} in ${r.delayMs} ms: ${r.reason}`, { url: r.url }, 'warn');
      },
    });
  } finally {
    display.stop();
    await transport.destroy();
  }
  // A reader that went away or Ctrl-C ends the run without a word (docs/cli.md#guarantees).
  const stdoutClosed = (result as { stdoutClosed?: unknown } | undefined)?.stdoutClosed === true;
  if (stdoutClosed || ctx.signal.aborted) return result;
  if (display.mode !== 'none') {
    for (const { output, line } of untoldFailures(result, display.tally.failedOutputs))
      ctx.log.error(io.color.red(`mdget: ${printable(redactText(line, ctx.secrets))}`), { file: output });
  }
  // Someone watches: a terminal, a log asked for with --progress, or a log pipeline (JSON lines).
  if (display.mode !== 'none' || (!quiet && (io.stderrIsTTY || ctx.log.format === 'json'))) {
    const summary = summaryOf(result, display.tally, Date.now());
    ctx.log.closing('info', formatSummary(summary, io.color.red), {
      rows: summary.rows,
      ...(summary.bytes === undefined ? {} : { bytes: summary.bytes }),
    });
  }
  return result;
}
