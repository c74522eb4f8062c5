/**
 * Every command, declared once as data: name, what it does, its endpoint, arguments, options and examples.
 * The table yields the commander program (program.ts), `mdget --help` without building it (help.ts), each
 * command's help and the generated command sections of the README and docs/cli.md (readme-tables.ts).
 * Plain data only: importing it loads no command, so start-up pays for the one command that runs.
 */
import {
  dateRangeParams,
  eodParams,
  eventsParams,
  futuresOptionsParams,
  minutesParams,
  type ParamSpec,
  ticksParams,
} from '../core/model/params.js';
import { CONFIG_OPTIONS } from './config-options.js';
import { DATASET_COMMANDS } from './dataset-commands.js';
import type { OptionName } from './options.js';

export interface ArgumentSpec {
  readonly name: string;
  readonly help: string;
  readonly variadic?: boolean;
  readonly required?: boolean;
  readonly choices?: readonly string[];
}

export type CommandSection = 'download' | 'reference' | 'dataset' | 'other';

export interface CommandSpec {
  readonly name: string;
  readonly section: CommandSection;
  /** One line for `mdget --help`. */
  readonly summary: string;
  /** What it does, for its help and the docs (Markdown backticks allowed). */
  readonly about: string;
  /** The service endpoint(s), for its help and the docs. */
  readonly endpoint?: string;
  readonly args: readonly ArgumentSpec[];
  /** The service's query parameters it models, as flags (core/params.ts). */
  readonly params?: readonly ParamSpec[];
  /** Its options, in help order within each group; shown in its help and docs/cli.md. */
  readonly options: readonly OptionName[];
  /** Accepted but not shown: settings a wrapper may pass to every command, and rules' targets. */
  readonly accepts?: readonly OptionName[];
  readonly examples: readonly string[];
}

export { CONFIG_OPTIONS } from './config-options.js';

const REQUEST = ['param', 'symbols-file', 'shard'] as const satisfies readonly OptionName[];
const SERIES_REQUEST = ['window', 'max-rows'] as const satisfies readonly OptionName[];
/** The output options after `-o` and `--format` (futopts has a `--format` of its own). */
const OUTPUT_REST = [
  'compression',
  'no-header',
  'columns',
  'utc',
  'tz',
  'source-tz',
  'gzip',
  'force',
  'skip-existing',
] as const satisfies readonly OptionName[];
const OUTPUT = ['output', 'format', ...OUTPUT_REST] as const satisfies readonly OptionName[];
const OUTPUT_TAIL = ['no-fsync', 'temp-dir', 'report', 'dry-run'] as const satisfies readonly OptionName[];
const NETWORK = [
  'concurrency',
  'retries',
  'timeout',
  'rate',
  'proxy',
] as const satisfies readonly OptionName[];
const MESSAGES = ['progress', 'quiet', 'verbose', 'log-format'] as const satisfies readonly OptionName[];
/** The metrics file of a download or a sync (docs/recipes.md#monitoring). */
const MONITORING = ['metrics-file', 'metrics-job'] as const satisfies readonly OptionName[];
const HISTORICAL = ['username', 'password-stdin', 'historical-url', 'env-file'] as const;

/** The options of a time-series download (ticks, minutes, eod). */
const SERIES_OPTIONS = [
  ...REQUEST,
  ...SERIES_REQUEST,
  ...OUTPUT,
  'update',
  ...OUTPUT_TAIL,
  ...NETWORK,
  ...HISTORICAL,
  ...MONITORING,
  ...MESSAGES,
] as const satisfies readonly OptionName[];

/** The options of a download that is not a time series (events, daterange, futopts). */
const listOptions = <const C extends readonly OptionName[]>(config: C) =>
  [...REQUEST, ...OUTPUT, ...OUTPUT_TAIL, ...NETWORK, ...config, ...MONITORING, ...MESSAGES] as const;

/** Download options a command does not use but accepts, so core can say why they do not apply. */
const NOT_SERIES = [...SERIES_REQUEST, 'update'] as const satisfies readonly OptionName[];

const SYMBOLS: ArgumentSpec = {
  name: 'symbol',
  variadic: true,
  help: 'instrument symbols, e.g. AAPL ESM25 ES*1 (or `--symbols-file`)',
};
const SYMBOL_LIST: ArgumentSpec = {
  ...SYMBOLS,
  help: 'instrument symbols, sent as one comma list (split past 2,000 bytes of query)',
};

export const COMMANDS = [
  {
    name: 'ticks',
    section: 'download',
    summary: 'trades, one request per symbol and calendar day (queryticks)',
    about: 'Trades, one request per symbol and calendar day (the service serves one day per request).',
    endpoint: '`queryticks.ashx`',
    args: [SYMBOLS],
    params: ticksParams,
    options: SERIES_OPTIONS,
    examples: [
      'mdget ticks ESM25 --start 2025-03-10 --end 2025-03-15 -o "ticks/{symbol}-{date}.csv"',
      'mdget ticks AAPL --start 2025-03-14T09:30 --end 2025-03-14T10:00 --session-filter +T --format ndjson',
      'mdget ticks ESM25 --start 2025-03-13 --tz UTC --columns time,price,size',
    ],
  },
  {
    name: 'minutes',
    section: 'download',
    summary: 'minute bars (queryminutes; --nearby, --form-t variants)',
    about:
      'Minute bars. `ROOT*n` symbols (n-th nearest contract) and `--nearby` add a leading `contract` column.',
    endpoint:
      '`queryminutes.ashx`; `--nearby` `querynearbyminutes.ashx`; `--form-t` `queryformtminutes.ashx`',
    args: [SYMBOLS],
    params: minutesParams,
    options: SERIES_OPTIONS,
    examples: [
      'mdget minutes AAPL --start 2025-03-14 --end 2025-03-15 --interval 5',
      'mdget minutes ES --nearby --start 2025-03-17 --end 2025-03-22 -o es-continuous.csv',
      'mdget minutes AAPL --form-t --start 2025-03-14',
    ],
  },
  {
    name: 'eod',
    section: 'download',
    summary: 'daily and longer bars (queryeod)',
    about: 'Daily and longer bars: 7 columns for equities, 8 (with open interest) for futures.',
    endpoint: '`queryeod.ashx`',
    args: [SYMBOLS],
    params: eodParams,
    options: SERIES_OPTIONS,
    examples: [
      'mdget eod AAPL MSFT --start 2024-01-01 --end 2025-01-01',
      'mdget eod ZC*1 --period weekly --nearest --volume sum --backadjust',
    ],
  },
  {
    name: 'events',
    section: 'download',
    summary: 'splits, dividends and earnings (queryevents)',
    about:
      'Splits, dividends and earnings for a list of symbols in one request (split only past a safe URL length); unknown symbols are left out by the service.',
    endpoint: '`queryevents.ashx`',
    args: [SYMBOL_LIST],
    params: eventsParams,
    options: listOptions(HISTORICAL),
    accepts: NOT_SERIES,
    examples: ['mdget events AAPL MSFT TSLA --splits --dividends --start 2020-01-01'],
  },
  {
    name: 'daterange',
    section: 'download',
    summary: 'available date ranges of the minute or EOD database',
    about:
      'The available date range of each symbol in the minute or EOD database: `symbol,first,last`; lines of any other shape pass through unchanged.',
    endpoint: '`queryminutedaterange.ashx` / `queryeoddaterange.ashx`',
    args: [
      {
        name: 'database',
        required: true,
        choices: ['minutes', 'eod'],
        help: 'which database: minutes or eod',
      },
      SYMBOL_LIST,
    ],
    params: dateRangeParams,
    options: listOptions(HISTORICAL),
    accepts: NOT_SERIES,
    examples: ['mdget daterange eod AAPL ZCN25', 'mdget daterange minutes AAPL --format raw'],
  },
  {
    name: 'futopts',
    section: 'download',
    summary: 'futures-options end-of-day data (futuresoptions)',
    about:
      'Futures-options end-of-day data per root; further parameters through `--param`. With `--json` the service JSON is streamed through unchanged (`--format json`, its default, or `raw`).',
    endpoint: '`futuresoptions`; `--json` `futuresoptions/json` (futures-options base URL)',
    args: [{ name: 'root', variadic: true, help: 'futures roots, e.g. ZC CL (or `--symbols-file`)' }],
    params: futuresOptionsParams,
    // its --format defaults to json with --json
    options: [
      ...REQUEST,
      'output',
      'futopts-format',
      ...OUTPUT_REST,
      ...OUTPUT_TAIL,
      ...NETWORK,
      ...(['username', 'password-stdin', 'futures-options-url', 'env-file'] as const),
      ...MONITORING,
      ...MESSAGES,
    ],
    accepts: NOT_SERIES,
    examples: ['mdget futopts ZC --date 2025-03-13', 'mdget futopts ZC CL --json -o "fo-{symbol}.json"'],
  },
  {
    name: 'exchanges',
    section: 'reference',
    summary: 'the exchanges list: ids, descriptions, delays, codes, time zones',
    about: 'The exchanges list (XML) from the extras host, typed. No credentials are sent to that host.',
    endpoint: '`<exchanges-path>.php` (extras base URL)',
    args: [],
    options: [
      'find',
      'exchanges-format',
      'file-output',
      'force',
      'report',
      'dry-run',
      'retries',
      'timeout',
      'proxy',
      'extras-url',
      'exchanges-path',
      'env-file',
      ...MESSAGES,
    ],
    examples: [
      'mdget exchanges --find ice',
      'mdget exchanges --format json -o exchanges.json',
      'mdget exchanges --format xml > exchanges.xml',
    ],
  },
  {
    name: 'instruments',
    section: 'reference',
    summary: 'instrument profile tables of one exchange, or of a capture',
    about:
      'The instrument definitions of one exchange as profile tables, streamed; or the same tables from captured streaming metadata (`--from-capture`). No credentials are sent to either host.',
    endpoint: '`<exchange_id>-instruments.json` (instruments base URL), after the exchanges list',
    args: [{ name: 'exchange', help: 'exchange id or description (must match exactly one)' }],
    options: [
      'from-capture',
      'instruments-format',
      'table',
      'compression',
      'file-output',
      'force',
      'report',
      'dry-run',
      'retries',
      'timeout',
      'proxy',
      'extras-url',
      'exchanges-path',
      'instruments-url',
      'env-file',
      ...MESSAGES,
    ],
    examples: [
      'mdget instruments CME',
      'mdget instruments "CME Globex" --format csv --table symbols',
      'mdget instruments CME --format sqlite -o cme.db',
      'recorder | mdget instruments --from-capture - --format csv',
    ],
  },
  {
    name: 'config',
    section: 'other',
    summary: 'show the effective configuration, where each value came from, secrets redacted',
    about:
      'Each setting, its value (the password redacted) and where it came from: flag, environment, dotenv file or default.',
    args: [],
    options: [...CONFIG_OPTIONS, 'max-rows', 'quiet', 'verbose', 'log-format'],
    examples: ['mdget config', 'mdget config --env-file prod.env'],
  },
  {
    name: 'emulator',
    section: 'other',
    summary: 'serve the bundled emulator of the service on 127.0.0.1; prints its settings as .env lines',
    about:
      'Serves the bundled emulator of the service on 127.0.0.1 until interrupted, and prints its settings as `.env` lines (user `demo`, password `demo`).',
    args: [],
    options: ['port', 'tls', 'set', 'help-options', 'log-format'],
    examples: [
      'mdget emulator > emulator.env &',
      'mdget emulator --port 8080 --set rowCap=5000',
      'mdget emulator --tls > .env &',
    ],
  },
  ...DATASET_COMMANDS,
] as const satisfies readonly CommandSpec[];

export type CommandName = (typeof COMMANDS)[number]['name'];

/** The download commands, by name. */
export type DownloadCommandName = Extract<(typeof COMMANDS)[number], { section: 'download' }>['name'];

/** The spec of a command, or undefined for an unknown name. */
export function commandSpec(name: string): CommandSpec | undefined {
  return (COMMANDS as readonly CommandSpec[]).find((command) => command.name === name);
}
