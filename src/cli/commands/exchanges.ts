import type { ExchangesOptions, ExchangesOutputFormat } from '../../core/commands/reference.js';
import type { Io } from '../io.js';
import { withRunDeps } from '../run-deps.js';
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
  await withRunDeps(flags, ctx, options.output, (deps) => core.runExchanges(options, config, deps));
}
