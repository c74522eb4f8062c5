import { Argument, Command, Option } from 'commander';
import { COMMAND_PARAMS } from '../core/params.js';
import {
  DOWNLOADS,
  type DownloadCommand,
  type Flags,
  type RunContext,
  runDownload,
} from './commands/download.js';
import { addConfigOptions, addDownloadOptions } from './common-options.js';
import { parseDuration } from './duration.js';
import { optionFor, parseIntFlag } from './param-options.js';

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
  const output = {
    writeOut: (text: string) => ctx.io.stdout.write(text),
    writeErr: (text: string) => ctx.io.stderr.write(text),
    outputError: (text: string, write: (text: string) => void) =>
      write(`mdget: ${text.replace(/^error: /, '')}`),
  };
  const program = new Command('mdget')
    .description('Download historical market data from the Market Data Service: streamed, atomic, redacted.')
    .version(version, '-V, --version')
    .exitOverride()
    .configureOutput(output);

  for (const name of Object.keys(DOWNLOADS) as DownloadCommand[]) {
    const command = new Command(name).description(DESCRIPTIONS[name].text);
    if (name === 'daterange') {
      command.addArgument(new Argument('<database>', 'which database').choices(['minutes', 'eod']));
    }
    command.addArgument(
      new Argument(DESCRIPTIONS[name].args, name === 'futopts' ? 'futures roots' : 'symbols'),
    );
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
    program.addCommand(command.configureOutput(output));
  }

  program.addCommand(
    addReferenceOptions(
      new Command('exchanges')
        .description('the exchanges list (ids, descriptions, delays, codes, time zones) from the extras host')
        .option('--find <text>', 'only exchanges whose id or description contains <text> (any case)')
        .addOption(
          new Option('--format <fmt>', 'output format (default: table on a terminal, csv otherwise)').choices(
            ['table', 'csv', 'json', 'ndjson', 'xml'],
          ),
        ),
    )
      .configureOutput(output)
      .action(async (flags: Flags) =>
        (await import('./commands/exchanges.js')).runExchangesCommand(flags, ctx),
      ),
  );
  program.addCommand(
    addReferenceOptions(
      new Command('instruments')
        .description('instrument profile tables of one exchange (<id>-instruments.json), or of a capture')
        .argument('[exchange]', 'exchange id or description (must match exactly one)')
        .addOption(
          new Option('--format <fmt>', 'output format; sqlite needs -o <file>')
            .choices(['ndjson', 'csv', 'json', 'sqlite'])
            .default('ndjson'),
        )
        .addOption(
          new Option('--table <name>', 'the table --format csv writes (default: instruments)').choices([
            'instruments',
            'symbols',
            'spread_legs',
          ]),
        )
        .option('--from-capture <file|->', 'build the tables from captured streaming metadata (- = stdin)')
        .option('--progress', 'progress bar on stderr (default: when stderr is a terminal)')
        .option('--no-progress', 'no progress bar'),
    )
      .configureOutput(output)
      .action(async (exchange: string | undefined, flags: Flags) =>
        (await import('./commands/instruments.js')).runInstrumentsCommand(exchange, flags, ctx),
      ),
  );
  program.addCommand(
    addConfigOptions(new Command('config'))
      .description('show the effective configuration, where each value came from, secrets redacted')
      .exitOverride()
      .configureOutput(output)
      .action(async (flags: Flags) => (await import('./commands/config.js')).runConfig(flags, ctx)),
  );
  program.addCommand(
    new Command('emulator')
      .description(
        'serve the bundled emulator of the service on 127.0.0.1; prints its settings as .env lines',
      )
      .option('--port <n>', 'port (default: a free one)', '0')
      .option(
        '--set <key=value>',
        'emulator option (see --help-options), repeatable',
        (v: string, p: string[]) => [...p, v],
        [],
      )
      .option('--help-options', 'list the emulator options and its assumptions')
      .exitOverride()
      .configureOutput(output)
      .action(async (flags: Flags) => (await import('./commands/emulator.js')).runEmulator(flags, ctx)),
  );
  return program;
}

/** Output and retry options of `exchanges` and `instruments`, plus the configuration flags. */
function addReferenceOptions(command: Command): Command {
  return addConfigOptions(
    command
      .option('-o, --output <path>', 'file written atomically, or `-` for stdout', '-')
      .option('--force', 'overwrite an existing output file')
      .option(
        '--retries <n>',
        'retries on network errors, 429 and 5xx',
        (v) => parseIntFlag(v, '--retries', 0, 20),
        3,
      )
      .option(
        '--timeout <duration>',
        'per-request timeout without data (e.g. 30s, 2m)',
        parseDuration,
        60_000,
      ),
  ).exitOverride();
}
