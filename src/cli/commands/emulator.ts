import { usageError } from '../../core/model/errors.js';
import { CLOCK_VARIABLE } from '../config.js';
import type { RunContext } from '../context.js';
import type { FlagsOf } from '../flags.js';

/** The `--port` value as a port number, or a usage error naming the flag and the accepted form. */
function portFrom(value: string | undefined): number {
  const text = (value ?? '0').trim();
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(port) || port > 65535)
    throw usageError(`--port '${text}': expected an integer 0-65535 (0 = any free port)`);
  return port;
}

/** A one-line usage error for a listen failure the user can fix by choosing a port, else undefined. */
function listenError(error: unknown, port: number): Error | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return usageError(`--port ${port}: address in use: choose another port or 0`);
  if (code === 'EACCES')
    return usageError(`--port ${port}: permission denied: choose a port above 1023 or 0`);
  return undefined;
}

/** `mdget emulator`: serves the bundled emulator until interrupted; prints its settings as .env lines. */
export async function runEmulator(flags: FlagsOf<'emulator'>, ctx: RunContext): Promise<void> {
  const emulator = await import('../../emulator/index.js');
  if (flags.helpOptions) {
    ctx.io.stdout.write(`${emulator.EMULATOR_HELP.trimEnd()}\n`);
    return;
  }
  const options: { port: number } & Record<string, unknown> = { port: portFrom(flags.port) };
  for (const pair of flags.set ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usageError(`--set '${pair}': expected key=value (see mdget emulator --help-options)`);
    try {
      Object.assign(options, emulator.parseEmulatorOption(pair.slice(0, eq), pair.slice(eq + 1)));
    } catch (error) {
      throw usageError(`--set ${pair}: ${(error as Error).message}`);
    }
  }
  let server: Awaited<ReturnType<typeof emulator.startEmulator>>;
  try {
    server = await emulator.startEmulator(options, flags.tls === true);
  } catch (error) {
    throw listenError(error, options.port) ?? error;
  }
  for (const [name, value] of Object.entries(server.env)) ctx.io.stdout.write(`${name}=${value}\n`);
  // the emulator's clock is mdget's too: a file of these lines given to --env-file plans the same days
  if (options.now instanceof Date)
    ctx.io.stdout.write(`${CLOCK_VARIABLE.name}=${options.now.toISOString()}\n`);
  ctx.io.stderr.write(`mdget: emulator listening on ${server.url} (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
}
