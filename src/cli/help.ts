/**
 * Help from the tables. `mdget --help` is rendered here without commander, which a `--help` need not load,
 * laid out as commander lays out the full program (a unit test holds the two equal); each command's help is
 * commander's, with the footer below: date forms, duration units, examples and exit codes.
 */

import { DURATION_UNITS } from '../core/model/durations.js';
import { type ArgumentSpec, COMMANDS, type CommandSection, type CommandSpec } from './command-table.js';
import { EXIT_CODES } from './exit-codes.js';
import { OPTIONS } from './options.js';

export const PROGRAM_DESCRIPTION =
  'Download historical market data from the Market Data Service: streamed, atomic, redacted.';

/** The headings the commands are listed under in `mdget --help`. */
export const SECTION_HEADINGS: Record<CommandSection, string> = {
  download: 'Download commands:',
  reference: 'Reference data:',
  dataset: 'Datasets:',
  other: 'Other commands:',
};

/** The program's own options, as commander words them. */
export const PROGRAM_OPTIONS = [
  ['-V, --version', 'output the version number'],
  ['-h, --help', 'display help for command'],
] as const;

export const HELP_COMMAND = ['help [command]', 'display help for command'] as const;

const DATE_FORMS =
  'YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], YYYYMMDD[HHMM[SS]], today, yesterday, tomorrow or <n>d (n days ago), on the ' +
  "market's wall clock (Eastern for equities, Central otherwise); a time with Z or an offset is converted.";

/** An argument as commander shows it: `<name>`, `[name]`, `[name...]`. */
export function argumentTerm(arg: ArgumentSpec): string {
  const name = `${arg.name}${arg.variadic ? '...' : ''}`;
  return arg.required ? `<${name}>` : `[${name}]`;
}

/** A command as listed in `mdget --help`: name, [options], arguments. */
function commandTerm(spec: CommandSpec): string {
  return [spec.name, '[options]', ...spec.args.map(argumentTerm)].join(' ');
}

/** `mdget --help`, complete: usage, options, commands by section, then examples and exit codes. */
export function topHelp(width = 80): string {
  const sections = Object.entries(SECTION_HEADINGS).map(([section, heading]) => {
    const items = COMMANDS.filter((c) => c.section === section).map((c): readonly [string, string] => [
      commandTerm(c),
      c.summary,
    ]);
    return { heading, items: section === 'other' ? [...items, HELP_COMMAND] : items };
  });
  const all = [{ heading: 'Options:', items: PROGRAM_OPTIONS }, ...sections];
  const termWidth = Math.max(...all.flatMap((s) => s.items.map(([term]) => term.length)));
  const lines = ['Usage: mdget [options] [command]', '', wrap(PROGRAM_DESCRIPTION, width), ''];
  for (const { heading, items } of all) {
    lines.push(heading, ...items.map(([term, text]) => formatItem(term, text, termWidth, width)), '');
  }
  return `${lines.join('\n')}${topHelpFooter(width)}\n`;
}

/** What `mdget --help` ends with: where more help is, examples, and every exit status. */
export function topHelpFooter(width = 80): string {
  const codes = EXIT_CODES.map(({ code, meaning }) => formatItem(String(code), plain(meaning), 3, width));
  return [
    '',
    ...wrap(
      'a local service to try mdget on, its settings in a file of their own (stop it: kill %1)',
      width - 4,
    )
      .split('\n')
      .map((line) => `  # ${line}`),
    ...[
      'mdget emulator > emulator.env &',
      'mdget ticks ESM25 --start 2025-03-13 --env-file emulator.env | head',
      'mdget eod AAPL MSFT --start 2025-01-01 -o eod.csv',
      'mdget exchanges --find cme',
    ].map((example) => wrapCommand(example, width)),
    '',
    'Exit codes:',
    ...codes,
  ].join('\n');
}

/** The text after a command's options: the forms its values take, examples, exit codes in short. */
export function commandHelpFooter(spec: CommandSpec, width = 80): string {
  const dates = (spec.params ?? []).filter((p) => p.kind === 'date').map((p) => `--${p.flag}`);
  const durations = spec.options.filter((name) => (OPTIONS[name] as { kind?: string }).kind === 'duration');
  const lines = [''];
  if (dates.length > 0) lines.push(wrap(`Dates (${dates.join(', ')}): ${DATE_FORMS}`, width, '  '));
  if (durations.length > 0)
    lines.push(
      wrap(`Durations (${durations.map((d) => `--${d}`).join(', ')}): ${DURATION_UNITS}.`, width, '  '),
    );
  if (lines.length > 1) lines.push('');
  lines.push('Examples:', ...spec.examples.map((example) => wrapCommand(example, width)), '');
  const short = EXIT_CODES.map(({ code, label }) => `${code} ${label}`).join(', ');
  lines.push(wrap(`Exit codes: ${short}; mdget --help explains them.`, width, '  '));
  return lines.join('\n');
}

/** Markdown backticks removed, for the terminal. */
export const plain = (text: string): string => text.replaceAll('`', '');

/** The least room a description keeps beside its term; with less, it goes under it. */
const MIN_TEXT_WIDTH = 24;

/**
 * A term and its text, as every help lays out an item (the CLI's commander help too, program.ts): padded,
 * the text wrapped beside it; on a terminal too narrow for that, the text wrapped under its term.
 */
export function formatItem(term: string, text: string, termWidth: number, width = 80): string {
  const indent = termWidth + 2;
  const room = width - indent - 2;
  if (!text) return `  ${term}`;
  const longest = Math.max(...text.split(/\s+/).map((word) => word.length));
  if (room < MIN_TEXT_WIDTH || longest > room) {
    const under = ' '.repeat(6);
    return `  ${term}\n${under}${wrap(text, width - under.length).replaceAll('\n', `\n${under}`)}`;
  }
  const body = wrap(text, room).replaceAll('\n', `\n${' '.repeat(indent)}`);
  return `  ${term.padEnd(termWidth)}  ${body.replaceAll('\n', '\n  ')}`;
}

/** A command line of an example, broken at spaces with ` \` where it is wider than `width`. */
function wrapCommand(command: string, width: number): string {
  const lines: string[] = [];
  let line = '  ';
  for (const word of command.split(' ')) {
    if (line.trim() && line.length + 1 + word.length + 2 > width) {
      lines.push(`${line} \\`);
      line = `      ${word}`;
    } else line = line.trim() ? `${line} ${word}` : `  ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** Text wrapped at whitespace to `width` columns; lines after the first indented by `hang`. */
function wrap(text: string, width: number, hang = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const limit = lines.length === 0 ? width : width - hang.length;
    if (line && line.length + 1 + word.length > limit) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${hang}`);
}
