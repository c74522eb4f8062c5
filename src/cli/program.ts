/**
 * The commander program, built from the tables: every option of a command is a row of options.ts or of
 * the command's parameter table, turned into a commander Option here and nowhere else. main builds only
 * the command that runs; the whole program is built for what only commander can tell (unknown commands,
 * `mdget help <command>`), and by the test that holds `mdget --help` equal to commander's layout.
 */
import { Argument, Command, type Help, Option } from 'commander';
import { usageError } from '../core/model/errors.js';
import type { ParamSpec } from '../core/model/params.js';
import { COMMANDS, CONFIG_OPTIONS, type CommandName, type CommandSpec } from './command-table.js';
import type { RunContext } from './context.js';
import {
  commandHelpFooter,
  formatItem as formatHelpItem,
  HELP_COMMAND,
  PROGRAM_DESCRIPTION,
  PROGRAM_OPTIONS,
  plain,
  SECTION_HEADINGS,
  topHelpFooter,
} from './help.js';
import { OPTION_GROUPS, OPTIONS, type OptionName, type OptionSpec } from './options.js';
import { parseValue, parseWholeNumber } from './values.js';

/** What a command's action receives: its positional arguments as commander parsed them, and its flags. */
export type Action = (
  args: readonly (string | string[] | undefined)[],
  flags: Record<string, unknown>,
  ctx: RunContext,
) => Promise<void>;

/** Each command's run, loaded only when it runs, so a start pays for one command only. */
const ACTIONS: Record<CommandName, () => Promise<Action>> = {
  ticks: () => downloadAction('ticks'),
  minutes: () => downloadAction('minutes'),
  eod: () => downloadAction('eod'),
  events: () => downloadAction('events'),
  daterange: () => downloadAction('daterange'),
  futopts: () => downloadAction('futopts'),
  exchanges: async () => {
    const { runExchangesCommand } = await import('./commands/exchanges.js');
    return (_, flags, ctx) => runExchangesCommand(flags, ctx);
  },
  instruments: async () => {
    const { runInstrumentsCommand } = await import('./commands/instruments.js');
    return (args, flags, ctx) => runInstrumentsCommand(args[0] as string | undefined, flags, ctx);
  },
  config: async () => {
    const { runConfig } = await import('./commands/config.js');
    return (_, flags, ctx) => runConfig(flags, ctx);
  },
  emulator: async () => {
    const { runEmulator } = await import('./commands/emulator.js');
    return (_, flags, ctx) => runEmulator(flags, ctx);
  },
  sync: async () => {
    const { runSyncCommand } = await import('./commands/dataset.js');
    return (args, flags, ctx) => runSyncCommand(args[0] as string | undefined, flags, ctx);
  },
  status: async () => {
    const { runStatusCommand } = await import('./commands/dataset.js');
    return (args, flags, ctx) => runStatusCommand(args[0] as string | undefined, flags, ctx);
  },
  verify: async () => {
    const { runVerifyCommand } = await import('./commands/dataset.js');
    return (args, flags, ctx) => runVerifyCommand(args[0] as string | undefined, flags, ctx);
  },
};

async function downloadAction(
  name: Parameters<typeof import('./commands/download.js').runDownloadCommand>[0],
) {
  const { runDownloadCommand } = await import('./commands/download.js');
  const action: Action = (args, flags, ctx) => runDownloadCommand(name, args, flags, ctx);
  return action;
}

/** What an action does with what commander parsed: by default, load the command's run and call it. */
export type OnAction = (
  name: CommandName,
  args: readonly (string | string[] | undefined)[],
  flags: Record<string, unknown>,
) => Promise<void>;

/** Runs command `name` with `ctx` (its module is imported now, not at start-up). */
const runAction =
  (ctx: RunContext): OnAction =>
  async (name, args, flags) =>
    (await ACTIONS[name]())(args, flags, ctx);

/** The width help wraps to: the terminal's, else 80 (what a pager or a file gets). */
const widthOf = (stream: NodeJS.WritableStream, isTTY: boolean): number =>
  (isTTY ? (stream as { columns?: number }).columns : undefined) ?? 80;

/** The width of the stream a help goes to, as commander tells it in addHelpText's context. */
const helpWidth = (context: { command: Command; error: boolean }): number => {
  const output = context.command.configureOutput();
  return (context.error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) ?? 80;
};

/** Where commander writes, with its `error:` prefix turned into ours, and help as wide as the terminal. */
function outputFor(ctx: RunContext) {
  return {
    writeOut: (text: string) => ctx.io.stdout.write(text),
    writeErr: (text: string) => ctx.io.stderr.write(text),
    getOutHelpWidth: () => widthOf(ctx.io.stdout, ctx.io.stdoutIsTTY),
    getErrHelpWidth: () => widthOf(ctx.io.stderr, ctx.io.stderrIsTTY),
    outputError: (text: string) =>
      ctx.log.closing('error', `mdget: ${text.replace(/^error: /, '').replace(/\n$/, '')}`, {
        code: 'MDGET_USAGE',
      }),
  };
}

/**
 * The program with the given commands (main passes the one that runs; the full list by default). Each
 * action is loaded lazily and parses nothing itself: flags arrive parsed and checked by the rows.
 */
export function buildProgram(
  ctx: RunContext,
  specs: readonly CommandSpec[] = COMMANDS,
  version?: string,
  onAction: OnAction = runAction(ctx),
): Command {
  const output = outputFor(ctx);
  const program = new Command('mdget')
    .description(PROGRAM_DESCRIPTION)
    .configureHelp({ formatItem })
    .exitOverride()
    .configureOutput(output)
    .addHelpText('after', topHelpFooter());
  if (version !== undefined) program.version(version, '-V, --version', PROGRAM_OPTIONS[0][1]);
  for (const [section, heading] of Object.entries(SECTION_HEADINGS)) {
    program.commandsGroup(heading);
    for (const spec of specs.filter((s) => s.section === section)) {
      const command = buildCommand(spec, onAction);
      program.addCommand(command.configureOutput(output));
    }
  }
  program.helpCommand(HELP_COMMAND[0], HELP_COMMAND[1]);
  return program;
}

/** One command of the table as commander's: arguments, options in help groups, help footer, lazy action. */
function buildCommand(spec: CommandSpec, onAction: OnAction): Command {
  const command = new Command(spec.name)
    .summary(spec.summary)
    .description(describe(spec))
    .exitOverride()
    .configureHelp({ optionDescription: (option) => option.description, sortOptions: false, formatItem })
    .addHelpText('after', (context) => commandHelpFooter(spec, helpWidth(context)));
  for (const arg of spec.args) {
    const argument = new Argument(
      `${arg.required ? '<' : '['}${arg.name}${arg.variadic ? '...' : ''}${arg.required ? '>' : ']'}`,
      plain(arg.help),
    );
    command.addArgument(arg.choices ? argument.choices(arg.choices) : argument);
  }
  for (const option of optionsOf(spec)) command.addOption(option);
  command.addHelpOption(new Option('-h, --help', 'show this help').helpGroup(OPTION_GROUPS.messages));
  command.action(async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    const args = received.slice(0, -2) as (string | string[] | undefined)[];
    await onAction(spec.name as CommandName, args, self.opts());
  });
  return command;
}

/** One option or argument of a help, laid out as every help of mdget lays one out (help.ts). */
function formatItem(term: string, termWidth: number, description: string, helper: Help): string {
  return formatHelpItem(term, description, termWidth, helper.helpWidth ?? 80);
}

const describe = (spec: CommandSpec) =>
  `${spec.about.replaceAll('`', '')}${spec.endpoint ? `\nEndpoint: ${spec.endpoint.replaceAll('`', '')}.` : ''}`;

const GROUP_ORDER = Object.keys(OPTION_GROUPS);

/** The command's options: its parameters and rows in group order, then the accepted ones, hidden. */
function optionsOf(spec: CommandSpec): Option[] {
  const shown = [
    ...(spec.params ?? []).map(paramOption),
    ...spec.options.flatMap((name) => rowOptions(name, false)),
  ];
  const rank = (option: Option) =>
    GROUP_ORDER.findIndex((g) => OPTION_GROUPS[g as keyof typeof OPTION_GROUPS] === option.helpGroupHeading);
  shown.sort((a, b) => rank(a) - rank(b));
  const taken = new Set<string>([...spec.options]);
  const hidden = [...(spec.accepts ?? []), ...CONFIG_OPTIONS].filter((name) => !taken.has(name));
  return [...shown, ...hidden.flatMap((name) => rowOptions(name, true))];
}

/** The commander options of one row: `--x` (and `--no-x` for a negatable one), value parsed by its kind. */
function rowOptions(name: OptionName, hidden: boolean): Option[] {
  const row: OptionSpec = OPTIONS[name];
  const long = row.flag ?? name;
  const flags = `${row.short ? `-${row.short}, ` : ''}--${long}${row.value ? ` <${row.value}>` : ''}`;
  const option = new Option(flags, describeRow(row, long)).helpGroup(OPTION_GROUPS[row.group]);
  if (row.choices) option.choices(row.choices);
  else if (row.repeatable)
    option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  else if (row.kind && row.kind !== 'string')
    option.argParser((value: string) => parseValue(row, `--${long}`, value));
  if (hidden || row.hidden) option.hideHelp();
  if (!row.negatable) return [option];
  return [option, new Option(`--no-${long}`).helpGroup(OPTION_GROUPS[row.group]).hideHelp()];
}

/** A row's help line: its text, what sets it besides the flag, and its default. */
function describeRow(row: OptionSpec, long: string): string {
  const negatable = row.negatable ? `; --no-${long}: never` : '';
  const env = row.env ? ` (${row.env})` : '';
  const fallback = row.defaultText ? ` (default: ${row.defaultText})` : '';
  return plain(`${row.help}${negatable}${env}${fallback}`);
}

/** A query parameter row as a commander option: choices, whole-number ranges and patterns checked. */
function paramOption(spec: ParamSpec): Option {
  const value = spec.choices
    ? spec.choices.join('|')
    : (spec.metavar ?? (spec.kind === 'int' ? 'n' : spec.kind === 'date' ? 'date' : 'value'));
  const flags = spec.kind === 'flag' ? `--${spec.flag}` : `--${spec.flag} <${value}>`;
  const option = new Option(flags, spec.help).helpGroup(OPTION_GROUPS.request);
  if (spec.choices) option.choices(spec.choices);
  if (spec.kind === 'int')
    option.argParser((text: string) => parseWholeNumber(text, `--${spec.flag}`, spec.min, spec.max));
  const { pattern, form } = spec;
  if (spec.kind === 'string' && pattern) {
    option.argParser((text: string) => {
      if (!pattern.test(text))
        throw usageError(`--${spec.flag} '${text}': expected ${form ?? pattern.source}`);
      return text;
    });
  }
  return option;
}
