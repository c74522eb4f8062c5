import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { isMdgetError } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { type Io, systemIo } from './io.js';
import { buildProgram } from './program.js';

declare const __MDGET_VERSION__: string | undefined;

// The single binary has no package.json beside it: its build defines the version (scripts/build-sea.js).
const VERSION = (() => {
  if (typeof __MDGET_VERSION__ === 'string') return __MDGET_VERSION__;
  try {
    return (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
  } catch {
    return '0.0.0';
  }
})();

/** argv in, exit status out: builds the program, runs it, maps any error to one redacted stderr line. */
export async function main(argv: readonly string[], io: Io = systemIo()): Promise<number> {
  const controller = new AbortController();
  // Every request in flight listens to this one signal; --concurrency decides how many there are.
  setMaxListeners(0, controller.signal);
  // SIGINT (Ctrl-C), SIGTERM (a job runner's timeout) and SIGHUP (a closed terminal) all stop the run the
  // same way, so temporary and spool files are removed; the exit status is 128 + the signal's number.
  const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
  let stoppedBy: keyof typeof SIGNALS | undefined;
  const onSignal = (signal: keyof typeof SIGNALS) => {
    stoppedBy ??= signal;
    controller.abort();
  };
  for (const signal of Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]) process.once(signal, onSignal);
  // A reader that goes away (`mdget config | head -1`) is a normal end (cli.md); any other stdout error
  // (a full disk behind a redirect) fails the run with exit 6 below, never with a stack trace.
  let stdoutError: NodeJS.ErrnoException | undefined;
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') stdoutError ??= error;
  };
  io.stdout.on('error', onStdoutError);
  const stdoutFailed = async (): Promise<number | undefined> => {
    await new Promise((resolve) => setImmediate(resolve)); // write errors arrive on a later tick
    if (!stdoutError) return undefined;
    io.stderr.write(`mdget: cannot write standard output: ${stdoutError.code ?? stdoutError.message}\n`);
    return exitCodeFor('MDGET_IO');
  };
  const secrets: string[] = io.env.MDGET_PASSWORD ? [io.env.MDGET_PASSWORD] : [];
  try {
    const program = buildProgram({ io, signal: controller.signal, now: new Date(), secrets }, VERSION);
    await program.parseAsync([...argv], { from: 'user' });
    return (await stdoutFailed()) ?? EXIT.ok;
  } catch (error) {
    if (controller.signal.aborted) return stoppedBy ? SIGNALS[stoppedBy] : exitCodeFor('MDGET_ABORTED');
    const commanderCode = (error as { code?: unknown }).code;
    if (typeof commanderCode === 'string' && commanderCode.startsWith('commander.')) {
      const exitCode = (error as { exitCode?: number }).exitCode ?? EXIT.usage;
      return commanderCode === 'commander.helpDisplayed' ||
        commanderCode === 'commander.version' ||
        exitCode === 0
        ? EXIT.ok
        : EXIT.usage;
    }
    if (isMdgetError(error)) {
      const failed = await stdoutFailed();
      if (failed !== undefined) return failed;
      io.stderr.write(`mdget: ${redactText(error.message, secrets)}\n`);
      return exitCodeFor(error.code);
    }
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(
      `mdget: internal error: ${redactText(text, secrets)}\nmdget: this is a bug: please report it with the command you ran.\n`,
    );
    return EXIT.internal;
  } finally {
    for (const signal of Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]) process.off(signal, onSignal);
  }
}
