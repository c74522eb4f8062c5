import { redactUrl } from '../../core/model/redact.js';
import { buildExchangesUrl } from '../../core/plan/urls.js';
import type { ExchangesOptions } from '../../core/reference/instruments-command.js';
import { configFrom, type RunContext } from '../context.js';
import { flagNames } from '../flag-names.js';
import type { FlagsOf } from '../flags.js';
import type { Io } from '../io.js';
import { transportFromFlags, withRunDeps } from '../run-deps.js';
import { withReport } from './reference-report.js';

/** The options of `mdget exchanges` from its flags: table on a terminal, csv when piped, unless told. */
function exchangesOptionsFrom(flags: FlagsOf<'exchanges'>, io: Io): ExchangesOptions {
  const output = flags.output === '-' ? undefined : flags.output;
  const format = flags.format ?? (output === undefined && io.stdoutIsTTY ? 'table' : 'csv');
  return {
    format,
    ...(output === undefined ? {} : { output }),
    force: Boolean(flags.force),
    ...(flags.find === undefined ? {} : { find: flags.find }),
  };
}

/** `mdget exchanges`: flags → options, usage checked before configuration, then the core run. */
export async function runExchangesCommand(flags: FlagsOf<'exchanges'>, ctx: RunContext): Promise<void> {
  const core = await import('../../core/reference/instruments-command.js');
  const options = exchangesOptionsFrom(flags, ctx.io);
  core.checkExchangesOptions(options, flagNames);
  // The extras host gets no credentials (docs/service.md#exchanges-list): only its base URL is required.
  const config = await configFrom(flags, ctx, ['extras']);
  if (flags.dryRun) {
    ctx.io.stdout.write(`${redactUrl(buildExchangesUrl(config))}\n`);
    return;
  }
  await withReport(flags.report, 'exchanges', options.output, ctx, (wrap) =>
    withRunDeps(flags, ctx, options.output === undefined, transportFromFlags(flags), (deps) =>
      core.runExchanges(options, config, wrap({ ...deps, names: flagNames })),
    ),
  );
}
