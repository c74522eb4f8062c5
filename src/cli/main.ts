import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { poisonReleasedChunks } from '../core/buffers/chunk-pool.js';
import { isMdgetError } from '../core/model/errors.js';
import { usePlainFallbacks } from '../core/model/fallbacks.js';
import { redactText } from '../core/model/redact.js';
import { COMMANDS, commandSpec } from './command-table.js';
import { fixedClockFrom } from './config.js';
import type { RunContext } from './context.js';
import {
  EXIT,
  exitCodeFor,
  exitCodeForParser,
  exitCodeForSignal,
  SIGNAL_EXIT,
  type StopSignal,
} from './exit-codes.js';
import { topHelp } from './help.js';
import { type Io, systemIo } from './io.js';
import { createLog, jsonIo, type Log, logFormatFrom } from './log.js';

declare const __MDGET_VERSION__: string | undefined;

/** The version, read when asked: the single binary has none beside it, its build defines it (build-sea.js). */
function version(): string {
  if (typeof __MDGET_VERSION__ === 'string') return __MDGET_VERSION__;
  try {
    const path = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** After a stop signal, the longest the run may take to end (the contract says 2 s). */
const STOP_GRACE_MS = 1500;

/** Ends the process by `signal`'s default action: no handler left for it, nothing can hold it. */
function stopNow(signal: StopSignal): void {
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}

/**
 * argv in, exit status out: runs one command, maps any error to one redacted stderr line and a status; the
 * log's last line carries that status (docs/cli.md#json-log-lines).
 */
export async function main(argv: readonly string[], io?: Io): Promise<number> {
  const system = io ?? (await systemIo());
  // the password is redacted from every line, from the first
  const secrets: string[] = system.env.MDGET_PASSWORD ? [system.env.MDGET_PASSWORD] : [];
  const format = logFormatFrom(argv, system.env);
  const log = createLog(typeof format === 'string' ? format : 'text', {
    get stderr() {
      return system.stderr;
    },
    secrets,
  });
  const status = await run(argv, system, io === undefined, log, secrets, format);
  log.end(status);
  return status;
}

async function run(
  argv: readonly string[],
  system: Io,
  isProcess: boolean,
  log: Log,
  secrets: string[],
  format: ReturnType<typeof logFormatFrom>,
): Promise<number> {
  if (typeof format !== 'string') {
    log.closing('error', `mdget: MDGET_LOG_FORMAT=${format.invalid}: not a log format; give text or json`, {
      code: 'MDGET_CONFIG',
    });
    return exitCodeFor('MDGET_CONFIG');
  }
  const streams = format === 'json' ? await jsonIo(system, log) : system;
  const answered = await answerFromTables(argv, streams, log);
  if (answered !== undefined) return answered;
  // The test suite's use-after-release check (docs/internals.md); no user needs it.
  if (streams.env.MDGET_DEBUG_POISON === '1') poisonReleasedChunks(true);
  // Plain JavaScript and Node's zlib stream instead of the fast paths, to test and compare them
  // (core/model/fallbacks.ts); no user needs it either.
  if (streams.env.MDGET_DEBUG_PLAIN === '1') usePlainFallbacks(true);
  const controller = new AbortController();
  // Every request in flight listens to this one signal; --concurrency decides how many there are.
  setMaxListeners(0, controller.signal);
  // SIGINT (Ctrl-C), SIGTERM (a job runner's timeout) and SIGHUP (a closed terminal) all stop the run the
  // same way, so temporary and spool files are removed; exit-codes.ts gives each its status.
  const signals = Object.keys(SIGNAL_EXIT) as StopSignal[];
  let stoppedBy: StopSignal | undefined;
  const onSignal = (signal: StopSignal) => {
    stoppedBy ??= signal;
    controller.abort();
    // The run stops at once and its temporary files go; queued output is dropped. A write blocked on a
    // reader that never reads cannot be taken back, and holds even process.exit (it waits for the thread
    // that writes): after the grace period the signal is raised again with its default action, which
    // ends the process with the status a shell reports for it. Only for the process's own run (no test's).
    if (isProcess) setTimeout(() => stopNow(signal), STOP_GRACE_MS).unref();
  };
  for (const signal of signals) process.once(signal, onSignal);
  // A reader that goes away (`mdget config | head -1`) is a normal end (docs/cli.md#guarantees); any other
  // stdout error (a full disk behind a redirect) fails the run with exit 6 below, never with a stack trace.
  let stdoutError: NodeJS.ErrnoException | undefined;
  const watched = watchingStdout(streams, (error) => {
    if (error.code !== 'EPIPE') stdoutError ??= error;
  });
  const stdoutFailed = async (): Promise<number | undefined> => {
    await new Promise((resolve) => setImmediate(resolve)); // write errors arrive on a later tick
    if (!stdoutError) return undefined;
    log.closing('error', `mdget: cannot write standard output: ${stdoutError.code ?? stdoutError.message}`, {
      code: 'MDGET_IO',
    });
    return exitCodeFor('MDGET_IO');
  };
  // MDGET_NOW fixes "now" (an ISO 8601 instant): reproducible runs, and tests of what a later day does;
  // one from the dotenv file is applied once the command reads that file (context.ts).
  let clock: ReturnType<typeof fixedClockFrom>;
  try {
    clock = fixedClockFrom(streams.env);
  } catch (error) {
    log.closing('error', `mdget: ${(error as Error).message}`, { code: 'MDGET_CONFIG' });
    return exitCodeFor('MDGET_CONFIG');
  }
  const now = clock?.now ?? new Date();
  const ctx: RunContext = {
    io: watched,
    signal: controller.signal,
    now,
    clockFixed: clock !== undefined,
    // read when asked: a clock fixed by the dotenv file is known only once the command has read it
    clock: () => (ctx.clockFixed ? ctx.now : new Date()),
    secrets,
    log,
    version: version(),
    argv,
    exitCodeOf: (error) =>
      error === undefined
        ? EXIT.ok
        : controller.signal.aborted
          ? exitCodeForSignal(stoppedBy)
          : isMdgetError(error)
            ? exitCodeFor(error.code)
            : EXIT.internal,
  };
  try {
    const status = await dispatch(argv, ctx);
    return (await stdoutFailed()) ?? status;
  } catch (error) {
    if (controller.signal.aborted) return exitCodeForSignal(stoppedBy);
    const parser = exitCodeForParser(error);
    if (parser !== undefined) return parser;
    if (isMdgetError(error)) {
      const failed = await stdoutFailed();
      if (failed !== undefined) return failed;
      log.closing('error', `mdget: ${redactText(error.message, ctx.secrets)}`, {
        code: error.code,
        ...(error.url === undefined ? {} : { url: error.url }),
      });
      return exitCodeFor(error.code);
    }
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log.error(`mdget: internal error: ${redactText(text, ctx.secrets)}`);
    log.closing('error', 'mdget: this is a bug: please report it with the command you ran.');
    return EXIT.internal;
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
  }
}

/**
 * `io` with `onError` listening to its stdout from the moment the stream is built, not before: building it
 * makes a pipe non-blocking, which a download that writes the descriptor directly must not find.
 */
function watchingStdout(io: Io, onError: (error: NodeJS.ErrnoException) => void): Io {
  let stdout: NodeJS.WritableStream | undefined;
  return Object.defineProperties(Object.defineProperties({}, Object.getOwnPropertyDescriptors(io)), {
    stdout: {
      enumerable: true,
      get: () => {
        if (!stdout) {
          stdout = io.stdout;
          stdout.on('error', onError);
        }
        return stdout;
      },
    },
  }) as Io;
}

/**
 * `mdget`, `mdget --help` and `--version`, answered from the tables without commander, and on stdout
 * without building its stream where it can (bench/README.md#start-up); undefined for anything else.
 */
async function answerFromTables(argv: readonly string[], io: Io, log: Log): Promise<number | undefined> {
  const [first, second] = argv;
  if (first === undefined) {
    log.closing('error', topHelp(80).replace(/\n$/, ''), { code: 'MDGET_USAGE' });
    return EXIT.usage;
  }
  let text: string;
  if (first === '-h' || first === '--help' || (first === 'help' && second === undefined)) {
    text = topHelp(io.stdoutIsTTY ? ((io.stdout as { columns?: number }).columns ?? 80) : 80);
  } else if (first === '-V' || first === '--version') text = `${version()}\n`;
  else return undefined;
  let failed: NodeJS.ErrnoException | null | undefined;
  try {
    const rest = io.writeSync ? io.writeSync('stdout', text) : Buffer.from(text);
    if (rest.length > 0) {
      io.stdout.on('error', () => {}); // the write's callback below gets the error
      failed = await new Promise((resolve) => io.stdout.write(rest, resolve));
    }
  } catch (error) {
    failed = error as NodeJS.ErrnoException;
  }
  // A reader that went away (`| head`) is a normal end (docs/cli.md#guarantees); a full disk is not.
  if (failed && failed.code !== 'EPIPE') {
    log.closing('error', `mdget: cannot write standard output: ${failed.code ?? failed.message}`, {
      code: 'MDGET_IO',
    });
    return exitCodeFor('MDGET_IO');
  }
  return EXIT.ok;
}

/**
 * Runs argv: a command gets a program holding it alone, so commander builds one command's options, not
 * every command's (bench/README.md#start-up). Anything else goes to the whole program, for commander's own
 * errors and suggestions.
 */
async function dispatch(argv: readonly string[], ctx: RunContext): Promise<number> {
  const [first, second] = argv;
  const { buildProgram } = await import('./program.js');
  const named = commandSpec(first === 'help' && second !== undefined ? second : (first ?? ''));
  if (named && first === 'help') {
    await buildProgram(ctx, [named]).parseAsync([named.name, '--help'], { from: 'user' });
  } else {
    await buildProgram(ctx, named ? [named] : COMMANDS, version()).parseAsync([...argv], { from: 'user' });
  }
  return EXIT.ok;
}
