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
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  // A reader that goes away (`mdget config | head -1`) is a normal end, never a crash (cli.md).
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  };
  io.stdout.on('error', onStdoutError);
  const secrets: string[] = io.env.MDGET_PASSWORD ? [io.env.MDGET_PASSWORD] : [];
  try {
    const program = buildProgram({ io, signal: controller.signal, now: new Date(), secrets }, VERSION);
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (controller.signal.aborted) return exitCodeFor('MDGET_ABORTED');
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
      io.stderr.write(`mdget: ${redactText(error.message, secrets)}\n`);
      return exitCodeFor(error.code);
    }
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(
      `mdget: internal error: ${redactText(text, secrets)}\nmdget: this is a bug: please report it with the command you ran.\n`,
    );
    return EXIT.internal;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
