import type {
  ExchangesOptions,
  ExchangesOutputFormat,
  ReferenceResult,
  ReferenceRunDeps,
} from '../../core/commands/reference.js';
import { redactText } from '../../core/redact.js';
import { DEFAULT_RETRY } from '../../core/retry.js';
import type { Io } from '../io.js';
import { createProgress } from '../progress.js';
import { configFrom, type Flags, type RunContext } from './download.js';

/** The options of `mdget exchanges` from its flags: table on a terminal, csv when piped, unless told. */
export function exchangesOptionsFrom(flags: Flags, io: Io): ExchangesOptions {
  const output = (flags.output as string | undefined) ?? '-';
  const format =
    (flags.format as ExchangesOutputFormat | undefined) ??
    (output === '-' && io.stdoutIsTTY ? 'table' : 'csv');
  const find = flags.find as string | undefined;
  return { format, output, force: Boolean(flags.force), ...(find === undefined ? {} : { find }) };
}

/** `mdget exchanges`: flags → options, usage checked before configuration, then the core run. */
export async function runExchangesCommand(flags: Flags, ctx: RunContext): Promise<void> {
  const core = await import('../../core/commands/reference.js');
  const options = exchangesOptionsFrom(flags, ctx.io);
  core.checkExchangesOptions(options);
  // The extras host gets no credentials (wire-formats §2.9): only its base URL is required.
  const config = await configFrom(flags, ctx, ['extras']);
  await withReferenceDeps(flags, ctx, options.output, (deps) => core.runExchanges(options, config, deps));
}

/**
 * Runs `body` with the deps of a reference command: one dispatcher (destroyed afterwards), notes on stderr
 * unless --quiet, requests and retries with --verbose, progress bars when wanted; every message redacted.
 */
export async function withReferenceDeps<T extends ReferenceResult>(
  flags: Flags,
  ctx: RunContext,
  output: string,
  body: (deps: ReferenceRunDeps) => Promise<T>,
): Promise<T> {
  const { io } = ctx;
  const note = (message: string) => {
    if (!flags.quiet) io.stderr.write(`${io.color.dim(`mdget: ${redactText(message, ctx.secrets)}`)}\n`);
  };
  const { createDispatcher } = await import('../../core/http.js');
  const dispatcher = createDispatcher({ timeoutMs: (flags.timeout as number | undefined) ?? 60_000 });
  const progress = createProgress(
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
