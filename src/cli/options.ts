/**
 * Every option of the CLI but the service's query parameters (those are rows of core/params.ts), as one
 * table: the download options are the rows of core/model/option-schema.ts, keyed by their flag, and
 * only what no download takes is declared here (a command's own variant of a flag, the reference, emulator
 * and dataset commands' options). The table yields the commander options, their parsing, --help, the option
 * tables of docs/cli.md and the types of the parsed flags; nothing else spells a flag, its help or its
 * default.
 */

import { OUTPUT_FORMATS } from '../core/model/formats.js';
import { OPTION_ROWS, type OptionGroup, type OptionSpec } from '../core/model/option-schema.js';
import { DATASET_OPTIONS } from './options-dataset.js';

export type { OptionSpec } from '../core/model/option-schema.js';

/** The help sections options are grouped in, in the order help shows them. */
export const OPTION_GROUPS = {
  request: 'Request options:',
  output: 'Output options:',
  network: 'Network options:',
  config: 'Credentials and configuration:',
  emulator: 'Emulator options:',
  dataset: 'Dataset options:',
  monitoring: 'Monitoring:',
  messages: 'Messages:',
} as const satisfies Record<OptionGroup, string>;

/** The download options, each under its flag, with its literal type (flags.ts reads them). */
type DownloadOptionRows = { readonly [R in (typeof OPTION_ROWS)[number] as R['flag']]: R };
const DOWNLOAD_OPTIONS = Object.fromEntries(OPTION_ROWS.map((row) => [row.flag, row])) as DownloadOptionRows;

/** The options no download takes: the reference and emulator commands' own, and commands' own variants. */
const COMMAND_OPTIONS = {
  // exchanges and instruments write one file: no template
  'file-output': {
    flag: 'output',
    short: 'o',
    value: 'path',
    group: 'output',
    help: 'a file, written atomically (by rename), or `-` for stdout (the default)',
  },
  'futopts-format': {
    flag: 'format',
    value: 'csv|raw|ndjson|json|parquet',
    choices: OUTPUT_FORMATS,
    group: 'output',
    help: 'csv: header and a symbol column; raw: the service bytes; ndjson, json: one object per record; parquet: typed columns; with `--json`, json or raw only',
    defaultText: "the name's (`.csv`, `.ndjson`, `.json`, `.txt`, `.parquet`); else csv, json with `--json`",
  },
  find: {
    value: 'text',
    group: 'output',
    help: 'only exchanges whose id or description contains `<text>`, any case',
  },
  'exchanges-format': {
    flag: 'format',
    value: 'table|csv|json|ndjson|xml',
    choices: ['table', 'csv', 'json', 'ndjson', 'xml'],
    group: 'output',
    help: 'table: aligned columns; xml: the service document unchanged',
    defaultText: 'table on a terminal, csv otherwise',
  },
  'instruments-format': {
    flag: 'format',
    value: 'ndjson|csv|json|sqlite|parquet',
    choices: ['ndjson', 'csv', 'json', 'sqlite', 'parquet'],
    group: 'output',
    help: 'ndjson: definitions as served; csv, parquet: one table; json: nested; sqlite: a database (needs `-o`)',
    defaultText: 'ndjson; parquet for a `.parquet` file name',
  },
  table: {
    value: 'instruments|symbols|spread_legs',
    choices: ['instruments', 'symbols', 'spread_legs'],
    group: 'output',
    help: 'the table `--format csv` or `parquet` writes',
    defaultText: 'instruments',
  },
  'from-capture': {
    value: 'file|-',
    group: 'request',
    help: 'build the tables from captured streaming metadata instead (`-` = stdin)',
  },

  // The emulator's own.
  port: { value: 'n', group: 'emulator', help: 'port, 0-65535', defaultText: '0, a free one' },
  set: {
    value: 'key=value',
    repeatable: true,
    group: 'emulator',
    help: 'emulator option (see --help-options), repeatable',
  },
  'help-options': { group: 'emulator', help: 'list the emulator options and its assumptions' },
  tls: {
    group: 'emulator',
    help: 'serve HTTPS with a CA and a certificate made for the run; prints the CA file as NODE_EXTRA_CA_CERTS',
  },
} as const satisfies Record<string, OptionSpec>;

export const OPTIONS = {
  ...DOWNLOAD_OPTIONS,
  ...COMMAND_OPTIONS,
  ...DATASET_OPTIONS,
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/** The long flag of an option ('exchanges-format' → 'format'). */
export const flagOf = (name: OptionName): string => (OPTIONS[name] as OptionSpec).flag ?? name;
