import { usageError } from '../../core/errors.js';
import { parseIntFlag } from '../param-options.js';
import type { Flags, RunContext } from './download.js';

/** `mdget emulator`: serves the bundled emulator until interrupted; prints its settings as .env lines. */
export async function runEmulator(flags: Flags, ctx: RunContext): Promise<void> {
  const emulator = await import('../../emulator/index.js');
  if (flags.helpOptions) {
    ctx.io.stdout.write(`${emulator.EMULATOR_HELP.trimEnd()}\n`);
    return;
  }
  const options: Record<string, unknown> = { port: parseIntFlag(String(flags.port), '--port', 0, 65535) };
  for (const pair of (flags.set as string[]) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usageError(`--set '${pair}': expected key=value (see mdget emulator --help-options)`);
    try {
      Object.assign(options, emulator.parseEmulatorOption(pair.slice(0, eq), pair.slice(eq + 1)));
    } catch (error) {
      throw usageError(`--set ${pair}: ${(error as Error).message}`);
    }
  }
  const server = await emulator.startEmulator(options);
  for (const [name, value] of Object.entries(server.env)) ctx.io.stdout.write(`${name}=${value}\n`);
  ctx.io.stderr.write(`mdget: emulator listening on ${server.url} (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
}
