import { retryPolicy } from '../core/http/retry.js';
import { DEFAULTS } from '../core/model/defaults.js';
import { redactText } from '../core/model/redact.js';
import type { RunDeps } from '../core/run/run-types.js';
import type { RetryInfo } from '../core/run/scheduler.js';
import { DescriptorWritable } from '../core/sink/descriptor-writable.js';
import type { Flags, RunContext } from './context.js';
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
  const retry = retryPolicy(flags.retries as number | undefined);
  const mode = progressMode(io, flags.progress as boolean | undefined, quiet, toStdout && io.stdoutIsTTY);
  const display = await createProgress(io, mode, { retries: retry.retries, signal: ctx.signal });
  const note = (message: string) => {
    if (!quiet) display.log(io.color.dim(`mdget: ${printable(redactText(message, ctx.secrets))}`));
  };
  const { createDispatcher } = await import('../core/http/agent.js');
  const { RateLimiter } = await import('../core/http/rate-limit.js');
  const dispatcher = createDispatcher({
    timeoutMs: (flags.timeout as number | undefined) ?? DEFAULTS.timeoutMs,
    ...(flags.concurrency === undefined ? {} : { connections: flags.concurrency as number }),
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
      onNote: note,
      onPlan: display.onPlan,
      onProgress: display.onProgress,
      ...(flags.verbose ? { onRequest: (url: string) => note(`GET ${url}`) } : {}),
      onRetry: (r: RetryInfo) => {
        display.onRetry(r);
        // On a terminal the status line shows it while it waits; a log keeps it as a line.
        if (flags.verbose || display.mode === 'lines')
          note(`retry ${r.attempt} in ${r.delayMs} ms: ${r.reason}`);
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
    for (const line of untoldFailures(result, display.tally.failedOutputs))
      io.stderr.write(`${io.color.red(`mdget: ${printable(redactText(line, ctx.secrets))}`)}\n`);
  }
  // Someone watches: a terminal, or a log asked for with --progress.
  if (display.mode !== 'none' || (io.stderrIsTTY && !quiet)) {
    const summary = summaryOf(result, display.tally, Date.now());
    io.stderr.write(`${formatSummary(summary, io.color.red)}\n`);
  }
  return result;
}
