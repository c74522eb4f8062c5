import { Argument, Command } from 'commander';
import { COMMAND_PARAMS } from '../core/params.js';
import { DOWNLOADS, type DownloadCommand, type Flags, type RunContext, runDownload } from './commands/download.js';
import { addConfigOptions, addDownloadOptions } from './common-options.js';
import { optionFor } from './param-options.js';

const DESCRIPTIONS: Record<DownloadCommand, { args: string; text: string }> = {
  ticks: { args: '[symbols...]', text: 'trades, one request per symbol and calendar day (queryticks)' },
  minutes: { args: '[symbols...]', text: 'minute bars (queryminutes; --nearby, --form-t variants)' },
  eod: { args: '[symbols...]', text: 'daily and longer bars (queryeod)' },
  events: { args: '[symbols...]', text: 'splits, dividends and earnings (queryevents)' },
  daterange: { args: '[symbols...]', text: 'available date ranges of the minute or EOD database' },
  futopts: { args: '[roots...]', text: 'futures-options end-of-day data (futuresoptions)' },
};

/** The commander program: every flag comes from the parameter tables and the common option sets. */
export function buildProgram(ctx: RunContext, version: string): Command {
  const program = new Command('mdget')
    .description('Download historical market data from the Market Data Service: streamed, atomic, redacted.')
    .version(version, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      outputError: (text, write) => write(`mdget: ${text.replace(/^error: /, '')}`),
    });

  for (const name of Object.keys(DOWNLOADS) as DownloadCommand[]) {
    const command = new Command(name).description(DESCRIPTIONS[name].text);
    if (name === 'daterange') {
      command.addArgument(new Argument('<database>', 'which database').choices(['minutes', 'eod']));
    }
    command.addArgument(new Argument(DESCRIPTIONS[name].args, name === 'futopts' ? 'futures roots' : 'symbols'));
    for (const spec of COMMAND_PARAMS[name]) command.addOption(optionFor(spec));
    addDownloadOptions(command);
    addConfigOptions(command);
    command.exitOverride().action(async (...received: unknown[]) => {
      const cmd = received.at(-1) as Command;
      const flags: Flags = cmd.opts();
      const positional = received.slice(0, -2);
      let args = positional.at(-1) as string[];
      if (name === 'daterange') {
        flags.database = positional[0];
        args = positional[1] as string[];
      }
      await runDownload(DOWNLOADS[name], args ?? [], flags, ctx);
    });
    program.addCommand(command);
  }

  program.addCommand(
    addConfigOptions(new Command('config'))
      .description('show the effective configuration, where each value came from, secrets redacted')
      .exitOverride()
      .action(async (flags: Flags) => (await import('./commands/config.js')).runConfig(flags, ctx)),
  );
  program.addCommand(
    new Command('emulator')
      .description('serve the bundled emulator of the service on 127.0.0.1; prints its settings as .env lines')
      .option('--port <n>', 'port (default: a free one)', '0')
      .option('--set <key=value>', 'emulator option (see --help-options), repeatable', (v: string, p: string[]) => [...p, v], [])
      .option('--help-options', 'list the emulator options and its assumptions')
      .exitOverride()
      .action(async (flags: Flags) => (await import('./commands/emulator.js')).runEmulator(flags, ctx)),
  );
  return program;
}
