import { usageError } from '../../core/model/errors.js';
import { formatOfName } from '../../core/model/formats.js';
import { redactUrl } from '../../core/model/redact.js';
import { buildExchangesUrl } from '../../core/plan/urls.js';
import type { TablesOptions } from '../../core/reference/instruments-command.js';
import { refuseBinaryOnTerminal } from '../binary-output.js';
import { configFrom, type RunContext } from '../context.js';
import { flagNames } from '../flag-names.js';
import type { FlagsOf } from '../flags.js';
import { transportFromFlags, withRunDeps } from '../run-deps.js';
import { withReport } from './reference-report.js';

/** What `mdget instruments` was asked for: an exchange to download, or a capture to convert. */
export type InstrumentsSource = { exchange: string } | { capture: string };

/** The source and table options of `mdget instruments` from its argument and flags; MDGET_USAGE if unclear. */
function instrumentsOptionsFrom(
  exchange: string | undefined,
  flags: FlagsOf<'instruments'>,
): { source: InstrumentsSource; tables: TablesOptions } {
  const capture = flags.fromCapture;
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
  const tables: TablesOptions = {
    format: flags.format ?? (flags.output === undefined ? undefined : formatOfName(flags.output)) ?? 'ndjson',
    ...(flags.output === undefined || flags.output === '-' ? {} : { output: flags.output }),
    force: Boolean(flags.force),
    ...(flags.table === undefined ? {} : { table: flags.table }),
    ...(flags.compression === undefined ? {} : { compression: flags.compression }),
  };
  return { source: capture === undefined ? { exchange: exchange ?? '' } : { capture }, tables };
}

/** `mdget instruments`: flags → options, usage checked before configuration, then the core run. */
export async function runInstrumentsCommand(
  exchange: string | undefined,
  flags: FlagsOf<'instruments'>,
  ctx: RunContext,
): Promise<void> {
  const core = await import('../../core/reference/instruments-command.js');
  const { source, tables } = instrumentsOptionsFrom(exchange, flags);
  core.checkTablesOptions(tables, flagNames);
  refuseBinaryOnTerminal(tables.format === 'parquet' ? 'parquet' : undefined, tables.output, ctx.io);
  if ('capture' in source) {
    await configFrom(flags, ctx); // same refusals as everywhere: --password, a missing --env-file
    if (flags.dryRun) return; // a capture is read, not requested: nothing to print
    const capture = source.capture === '-' ? ctx.io.stdin : source.capture;
    await withReport(flags.report, 'instruments', tables.output, ctx, () =>
      withRunDeps(flags, ctx, tables.output === undefined, transportFromFlags(flags), (deps) =>
        core.runCapture({ ...tables, capture }, { ...deps, names: flagNames }),
      ),
    );
    return;
  }
  // Neither host gets credentials (docs/service.md#exchanges-list): only the two base URLs are required.
  const config = await configFrom(flags, ctx, ['extras', 'instruments']);
  if (flags.dryRun) {
    // The file's name is the id the list gives for <exchange>: known only once the list is fetched.
    ctx.io.stdout.write(`${redactUrl(buildExchangesUrl(config))}\n`);
    if (!flags.quiet) {
      const base = config.instrumentsUrl?.replace(/\/$/, '') ?? '';
      ctx.io.stderr.write(
        `mdget: then ${base}/<id>-instruments.json, <id> being the exchange "${source.exchange}" designates in that list\n`,
      );
    }
    return;
  }
  await withReport(flags.report, 'instruments', tables.output, ctx, (wrap) =>
    withRunDeps(flags, ctx, tables.output === undefined, transportFromFlags(flags), (deps) =>
      core.runInstruments(
        { ...tables, exchange: source.exchange },
        config,
        wrap({ ...deps, names: flagNames }),
      ),
    ),
  );
}
