import { redactText } from '../core/redact.js';
import { DEFAULT_RETRY } from '../core/retry.js';
import type { RunDeps } from '../core/run-types.js';
import type { Flags, RunContext } from './context.js';
import { createProgress } from './progress.js';

/**
 * Runs `body` with the plumbing every fetching command shares: one dispatcher (destroyed afterwards), notes
 * on stderr unless --quiet, requests and retries with --verbose, progress bars when wanted; every message
 * redacted with the run's secrets.
 */
export async function withRunDeps<T>(
  flags: Flags,
  ctx: RunContext,
  output: string,
  body: (deps: RunDeps) => Promise<T>,
): Promise<T> {
  const { io } = ctx;
  const note = (message: string) => {
    if (!flags.quiet) io.stderr.write(`${io.color.dim(`mdget: ${redactText(message, ctx.secrets)}`)}\n`);
  };
  const { createDispatcher } = await import('../core/http.js');
  const { RateLimiter } = await import('../core/rate-limit.js');
  const dispatcher = createDispatcher({
    timeoutMs: (flags.timeout as number | undefined) ?? 60_000,
    connections: Math.max(8, (flags.concurrency as number | undefined) ?? 0),
  });
  const progress = await createProgress(
    io,
    flags.progress as boolean | undefined,
    Boolean(flags.quiet),
    output === '-' && io.stdoutIsTTY,
  );
  try {
    return await body({
      dispatcher,
      signal: ctx.signal,
      retry: { ...DEFAULT_RETRY, retries: (flags.retries as number | undefined) ?? DEFAULT_RETRY.retries },
      limiter: new RateLimiter(flags.rate as number | undefined),
      secrets: ctx.secrets,
      stdout: io.stdout,
      onNote: note,
      ...(progress ? { onProgress: progress.onProgress } : {}),
      ...(flags.verbose
        ? {
            onRequest: (url: string) => note(`GET ${url}`),
            onRetry: (r: { attempt: number; delayMs: number; reason: string }) =>
              note(`retry ${r.attempt} in ${r.delayMs} ms: ${r.reason}`),
          }
        : {}),
    });
  } finally {
    progress?.stop();
    await dispatcher.destroy().catch(() => {});
  }
}
