/**
 * The generated sections of the README and docs/cli.md, from the same tables as the program and its help:
 * the list of commands, each download command's flags and query parameters, the options every download
 * shares, the options of the reference and dataset commands, the configuration variables and the exit codes.
 * `npm run readme` writes them between their markers; test/unit/readme.test.ts fails when a file drifts.
 */
import type { ParamSpec } from '../core/model/params.js';
import { COMMANDS, type CommandSpec } from './command-table.js';
import { CLOCK_VARIABLE } from './config.js';
import { EXIT_CODES } from './exit-codes.js';
import { argumentTerm } from './help.js';
import { OPTION_GROUPS, OPTIONS, type OptionName, type OptionSpec } from './options.js';

const cell = (text: string) => text.replaceAll('|', '\\|');

function paramTerm(spec: ParamSpec): string {
  if (spec.kind === 'flag') return `\`--${spec.flag}\``;
  const value = spec.choices
    ? spec.choices.join('|')
    : (spec.metavar ?? (spec.kind === 'int' ? 'n' : spec.kind));
  return cell(`\`--${spec.flag} <${value}>\``);
}

function queryCell(spec: ParamSpec): string {
  if (spec.query === '') return '(selects the endpoint)';
  if (spec.query === 'data')
    return spec.flag === 'period' ? '`data=<period>`' : `\`data=<period>${spec.flag}\``;
  if (spec.kind === 'flag') return `\`${spec.query}=${spec.sent ?? 'true'}\``;
  if (spec.kind === 'date') return `\`${spec.query}=yyyymmdd[hhmmss]\``;
  return `\`${spec.query}=<value>\``;
}

/** An option's flags as written in a table: `-o, --output <path>`, `--progress` / `--no-progress`. */
function optionTerm(name: OptionName): string {
  const row: OptionSpec = OPTIONS[name];
  const long = row.flag ?? name;
  const term = `\`${row.short ? `-${row.short}, ` : ''}--${long}${row.value ? ` <${row.value}>` : ''}\``;
  return cell(row.negatable ? `${term} / \`--no-${long}\`` : term);
}

/** An option's meaning as written in a table: its help, and its default. */
function optionMeaning(name: OptionName): string {
  const row: OptionSpec = OPTIONS[name];
  return cell(`${row.help}${row.defaultText ? ` (default: ${row.defaultText})` : ''}`);
}

const usageOf = (spec: CommandSpec) =>
  [`mdget ${spec.name}`, ...spec.args.map((arg) => (arg.choices ? arg.choices.join('|') : argumentTerm(arg)))]
    .join(' ')
    .replace('[symbol...]', '<symbol...>')
    .replace('[root...]', '<root...>');

/** Every command in one table: its usage and one line on what it does. */
function renderCommandList(): string {
  const out = ['| Command | What it does |', '|---|---|'];
  for (const spec of COMMANDS as readonly CommandSpec[])
    out.push(`| ${cell(`\`${usageOf(spec)}\``)} | ${cell(spec.summary)} |`);
  out.push('');
  return out.join('\n');
}

/** Each download command: usage, what it does, its endpoint, examples and its query flags (pure). */
function renderCommandTables(): string {
  const out: string[] = [];
  for (const spec of COMMANDS.filter((c) => c.section === 'download') as readonly CommandSpec[]) {
    out.push(`### \`${usageOf(spec)}\``, '', `${spec.about} Endpoint: ${spec.endpoint}.`, '');
    out.push('```sh', ...spec.examples, '```', '');
    const [symbols] = spec.args.filter((arg) => arg.variadic);
    out.push('| Flag | Query parameter | Meaning |', '|---|---|---|');
    if (symbols) out.push(`| positional \`${symbols.name}...\` | | ${symbols.help} |`);
    for (const param of spec.params ?? [])
      out.push(`| ${paramTerm(param)} | ${queryCell(param)} | ${param.help} |`);
    out.push(`| ${optionTerm('param')} | \`key=value\` | ${optionMeaning('param')} |`, '');
  }
  return out.join('\n');
}

/** The options the download commands share, by help group (configuration has its own section). */
function renderDownloadOptions(): string {
  const ticks = COMMANDS.find((c) => c.name === 'ticks') as CommandSpec;
  const out = ['| Option | Meaning |', '|---|---|'];
  for (const [group, heading] of Object.entries(OPTION_GROUPS)) {
    if (group === 'config') continue;
    const names = ticks.options.filter((name) => OPTIONS[name].group === group);
    if (names.length === 0) continue;
    out.push(`| **${heading.replace(/:$/, '')}** | |`);
    for (const name of names) out.push(`| ${optionTerm(name)} | ${optionMeaning(name)} |`);
  }
  out.push('');
  return out.join('\n');
}

/** The options of one command, with the configuration flags it reads named in one row. */
function renderOptionsOf(name: string): string {
  const spec = COMMANDS.find((c) => c.name === name) as CommandSpec;
  const out = ['| Option | Meaning |', '|---|---|'];
  // a hidden option (the refused --password) is in no table, as in no help
  const shown = spec.options.filter((o) => !(OPTIONS[o] as OptionSpec).hidden);
  for (const option of shown.filter((o) => OPTIONS[o].group !== 'config'))
    out.push(`| ${optionTerm(option)} | ${optionMeaning(option)} |`);
  const config = shown.filter((o) => OPTIONS[o].group === 'config');
  if (config.length > 0)
    out.push(`| ${config.map(optionTerm).join(', ')} | configuration it reads (see Configuration) |`);
  out.push('');
  return out.join('\n');
}

/** Every configuration variable with its flag. */
function renderConfigTable(): string {
  const config = COMMANDS.find((c) => c.name === 'config') as CommandSpec;
  const out = ['| Variable | Flag | Meaning |', '|---|---|---|'];
  for (const name of config.options) {
    const row: OptionSpec = OPTIONS[name];
    if (row.hidden || (row.group !== 'config' && row.env === undefined)) continue;
    out.push(`| ${row.env ? `\`${row.env}\`` : '(none)'} | ${optionTerm(name)} | ${optionMeaning(name)} |`);
  }
  out.push(`| \`${CLOCK_VARIABLE.name}\` | (none) | ${cell(CLOCK_VARIABLE.meaning)} |`);
  out.push('');
  return out.join('\n');
}

/** Every exit status and its meaning. */
function renderExitCodes(): string {
  return [
    '| Code | Meaning |',
    '|---|---|',
    ...EXIT_CODES.map((e) => `| ${e.code} | ${cell(e.meaning)} |`),
    '',
  ].join('\n');
}

/** The generated sections, by marker name. */
const SECTIONS = {
  'command-list': renderCommandList,
  commands: renderCommandTables,
  'download-options': renderDownloadOptions,
  'exchanges-options': () => renderOptionsOf('exchanges'),
  'instruments-options': () => renderOptionsOf('instruments'),
  'sync-options': () => renderOptionsOf('sync'),
  'status-options': () => renderOptionsOf('status'),
  'verify-options': () => renderOptionsOf('verify'),
  config: renderConfigTable,
  'exit-codes': renderExitCodes,
} as const satisfies Record<string, () => string>;

/** The files that hold generated sections (paths from the package root), and the sections of each. */
export const GENERATED_FILES = {
  'README.md': ['command-list', 'exit-codes'],
  'docs/cli.md': [
    'commands',
    'download-options',
    'exchanges-options',
    'instruments-options',
    'sync-options',
    'status-options',
    'verify-options',
    'config',
    'exit-codes',
  ],
} as const satisfies Record<string, readonly (keyof typeof SECTIONS)[]>;
export type GeneratedFile = keyof typeof GENERATED_FILES;

/** `text`, the contents of `file`, with each of its sections rewritten between its start and end markers. */
export function withGeneratedSections(file: GeneratedFile, text: string): string {
  let out = text;
  for (const name of GENERATED_FILES[file]) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${file} lacks the ${name} markers`);
    out = `${out.slice(0, from + start.length)}\n${SECTIONS[name]().trimEnd()}\n\n${out.slice(to)}`;
  }
  return out;
}
