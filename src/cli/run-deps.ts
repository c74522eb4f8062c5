import { retryPolicy } from '../core/http/retry.js';
import { DEFAULTS } from '../core/model/defaults.js';
import { redactText } from '../core/model/redact.js';
import type { RunDeps } from '../core/run/run-types.js';
import type { RetryInfo } from '../core/run/scheduler.js';
import { DescriptorWritable } from '../core/sink/descriptor-writable.js';
import type { Flags, RunContext } from './context.js';
import type { LogFields } from './log.js';
import { createProgress, progressMode } from './progress.js';
import { printable } from './progress-lines.js';
import { formatSummary, summaryOf, untoldFailures } from './summary.js';

/**
 * Runs `body` with the plumbing every fetching command shares: one dispatcher (destroyed afterwards), and
 * on stderr, unless --quiet: notes, the progress display when wanted (retries as a status line), requests
 * and retries as lines with --verbose, and a summary line at the end when someone watches; every message
 * redacted with the run's secrets.
 */
export async function withRunDeps<T>(
  flags: Flags,
  ctx: RunContext,
  toStdout: boolean,
  body: (deps: RunDeps) => Promise<T>,
): Promise<T> {
  const { io } = ctx;
  const quiet = Boolean(flags.quiet);
  const warning = ctx.transport?.httpWarning;
  if (warning && !quiet) io.stderr.write(`${io.color.yellow(`mdget: ${warning}`)}\n`);
  const retry = retryPolicy(flags.retries as number | undefined);
  const mode = progressMode(io, flags.progress as boolean | undefined, quiet, toStdout && io.stdoutIsTTY);
  const display = await createProgress(io, mode, {
    retries: retry.retries,
    signal: ctx.signal,
    log: ctx.log,
  });
  const log = ctx.log.through(display.log);
  const note = (message: string, fields?: LogFields, level: 'info' | 'warn' = 'info') => {
    if (!quiet) log[level](io.color.dim(`mdget: ${printable(redactText(message, ctx.secrets))}`), fields);
  };
  const { createDispatcher } = await import('../core/http/agent.js');
  const { RateLimiter } = await import('../core/http/rate-limit.js');
  const dispatcher = createDispatcher({
    timeoutMs: (flags.timeout as number | undefined) ?? DEFAULTS.timeoutMs,
    ...(flags.concurrency === undefined ? {} : { connections: flags.concurrency as number }),
    ...(ctx.transport ? { proxy: ctx.transport.proxy, ca: ctx.transport.ca } : {}),
  });
  let result: T;
  try {
    result = await body({
      dispatcher,
      signal: ctx.signal,
      retry,
      limiter: new RateLimiter(flags.rate as number | undefined),
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
    await dispatcher.destroy().catch(() => {});
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
