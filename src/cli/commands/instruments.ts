import type { InstrumentsFormat, ProfileTable, TablesOptions } from '../../core/commands/reference.js';
import { usageError } from '../../core/errors.js';
import { withRunDeps } from '../run-deps.js';
import { configFrom, type Flags, type RunContext } from './download.js';

/** What `mdget instruments` was asked for: an exchange to download, or a capture to convert. */
export type InstrumentsSource = { exchange: string } | { capture: string };

/** The source and table options of `mdget instruments` from its argument and flags; MDGET_USAGE if unclear. */
export function instrumentsOptionsFrom(
  exchange: string | undefined,
  flags: Flags,
): { source: InstrumentsSource; tables: TablesOptions } {
  const capture = flags.fromCapture as string | undefined;
  if (capture !== undefined && exchange !== undefined) {
    throw usageError('give either <exchange> or --from-capture <file|->, not both');
  }
  if (capture === undefined && (exchange === undefined || exchange.trim() === '')) {
    throw usageError(
      'missing <exchange>: give an exchange id or description (list them with: mdget exchanges), or --from-capture <file|->',
    );
  }
  if (capture === '-' && flags.passwordStdin) {
    throw usageError('--from-capture - and --password-stdin both read standard input: use MDGET_PASSWORD');
  }
  const table = flags.table as ProfileTable | undefined;
  const tables: TablesOptions = {
    format: (flags.format as InstrumentsFormat | undefined) ?? 'ndjson',
    output: (flags.output as string | undefined) ?? '-',
    force: Boolean(flags.force),
    ...(table === undefined ? {} : { table }),
  };
  return { source: capture === undefined ? { exchange: exchange as string } : { capture }, tables };
}

/** `mdget instruments`: flags → options, usage checked before configuration, then the core run. */
export async function runInstrumentsCommand(
  exchange: string | undefined,
  flags: Flags,
  ctx: RunContext,
): Promise<void> {
  const core = await import('../../core/commands/reference.js');
  const { source, tables } = instrumentsOptionsFrom(exchange, flags);
  core.checkTablesOptions(tables);
  if ('capture' in source) {
    await configFrom(flags, ctx, []); // same refusals as everywhere: --password, a missing --env-file
    const capture = source.capture === '-' ? ctx.io.stdin : source.capture;
    await withRunDeps(flags, ctx, tables.output, (deps) => core.runCapture({ ...tables, capture }, deps));
    return;
  }
  // Neither host gets credentials (wire-formats §2.9, §2.10): only the two base URLs are required.
  const config = await configFrom(flags, ctx, ['extras', 'instruments']);
  await withRunDeps(flags, ctx, tables.output, (deps) =>
    core.runInstruments({ ...tables, exchange: source.exchange }, config, deps),
  );
}
