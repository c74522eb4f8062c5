/**
 * Every option of a download, declared once: its flag and how the CLI parses and shows it, where a dataset
 * file sets it, and what the library calls it. The CLI's option table (src/cli/options.ts) is these rows
 * keyed by their flag, so commander's options, --help, docs/cli.md's tables and the parsed flags' types
 * come from them; so do the CLI's messages (src/cli/flag-names.ts), the dataset file's options table and its
 * file:line errors (dataset/series-options.ts, dataset-file.ts), the bounds checked for the CLI and the
 * library alike (plan/rules.ts:checkBounds) and the library's checks of unknown keys (client.ts). Each
 * service parameter is a row of params.ts, which the same readers take as `options.<flag>` and
 * `optionKey(flag)`.
 */
import { DEFAULTS, LIMITS } from './defaults.js';
import { DEFAULT_PARQUET_COMPRESSION, OUTPUT_FORMATS, PARQUET_COMPRESSIONS } from './formats.js';
import { COMMAND_PARAMS, optionKey, type ParamSpec } from './params.js';

/** The help section an option is shown in; the CLI gives each its heading and order. */
export type OptionGroup =
  | 'request'
  | 'output'
  | 'network'
  | 'config'
  | 'emulator'
  | 'dataset'
  | 'monitoring'
  | 'messages';

/** How an option's value is read: every kind but `string` is checked and converted at parse time. */
export type ValueKind = 'string' | 'int' | 'duration' | 'rate' | 'list' | 'shard';

/** How an option is written, parsed and shown on the command line: a row of the CLI's option table. */
export interface OptionSpec {
  /** The long flag without dashes when the table's key is not it (a command's own variant, e.g. `--format`). */
  readonly flag?: string;
  readonly short?: string;
  /** The value's name in help (`<path>`); a switch has none. */
  readonly value?: string;
  readonly kind?: ValueKind;
  /** Bounds of a whole number (`kind: 'int'`), shared by the flag's parser and the library's check. */
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
  /** Repeatable: every occurrence is kept, in order. */
  readonly repeatable?: boolean;
  /** Also `--no-<flag>`; unset means "decide for me". */
  readonly negatable?: boolean;
  /** Accepted but never shown (a refusal with a better error). */
  readonly hidden?: boolean;
  readonly group: OptionGroup;
  /** One line for --help and docs/cli.md (Markdown backticks allowed). */
  readonly help: string;
  /** Shown as "(default: …)"; the flag mappers apply the value, so "not given" stays visible to them. */
  readonly defaultText?: string;
  /** The variable that sets the same value (configuration precedence: flag > env > .env > default). */
  readonly env?: string;
}

/** How a value written in a dataset file's `options` table becomes the option's value. */
export type TomlReader = 'as-is' | 'list' | 'duration' | 'negated' | 'pairs';

/**
 * Where a dataset file sets an option: under its flag in a series' `options` table (read as `read`
 * says), by a key of the series itself (errors point at that key), or nowhere, with what sets it instead.
 */
export type TomlPlace =
  | { options: TomlReader }
  | { key: readonly string[]; setBy: string }
  | { elsewhere: string };

/**
 * What the library calls an option: a key of a query (`client.ticks({...})`), of download()'s settings,
 * of createClient's options or of its config; or none, with why the CLI alone has it.
 */
export type LibraryPlace =
  | { query: string }
  | { settings: string }
  | { client: string }
  | { settings: string; client: string }
  | { config: string }
  | { cliOnly: string };

/** A download option: its command line, its place in a dataset file and its name in the library. */
export interface OptionRow extends OptionSpec {
  /** The long flag without dashes, as commander and docs/cli.md spell it. */
  readonly flag: string;
  /** How a message names it on the command line, when not `--<flag>`. */
  readonly shown?: string;
  readonly toml: TomlPlace;
  readonly library: LibraryPlace;
}

/** The forms of the CLI's stderr lines (--log-format); the library has no stderr. */
export const LOG_FORMATS = ['text', 'json'] as const;

const byCommandLine = (flag: string): TomlPlace => ({ elsewhere: `the command line (mdget sync --${flag})` });
/** Credentials and base URLs: never in a dataset file (dataset-file.ts refuses them as secrets). */
const FROM_ENVIRONMENT: TomlPlace = { elsewhere: 'the environment or a dotenv file' };
const STDERR = "stderr is the CLI's: the library tells its listeners (createClient's listeners)";

/** The options of the download commands, but the service parameters (params.ts). */
export const OPTION_ROWS = [
  // Request: what is asked of the service, besides the query parameters of each command.
  {
    flag: 'symbols-file',
    value: 'path',
    group: 'request',
    help: 'more symbols, one per line (`-` = stdin; blank lines and `#` comments ignored)',
    toml: { key: ['symbols_file'], setBy: 'the series key symbols_file' },
    library: { cliOnly: 'the library takes the list itself (symbols)' },
  },
  {
    flag: 'param',
    value: 'key=value',
    repeatable: true,
    group: 'request',
    help: 'any other query parameter, sent as given (repeatable); not the credentials, the symbols or roots (give them as arguments), nor one a flag sets',
    toml: { options: 'pairs' },
    library: { query: 'extra' },
  },
  {
    flag: 'shard',
    value: 'i/n',
    kind: 'shard',
    group: 'request',
    help: 'only the i-th of n deterministic shares of the planned requests (CI matrices, batch arrays)',
    toml: byCommandLine('shard'),
    library: { settings: 'shard' },
  },
  {
    flag: 'window',
    value: 'duration',
    kind: 'duration',
    group: 'request',
    help: 'length of the windows a long range is split into, e.g. 1h, 7d',
    defaultText: 'sized from the rows a day holds',
    toml: { options: 'duration' },
    library: { settings: 'windowMs' },
  },
  {
    flag: 'max-rows',
    value: 'n',
    kind: 'int',
    ...LIMITS.maxRows,
    group: 'request',
    env: 'MDGET_MAX_ROWS',
    help: 'rows at which a response is taken as cut by the server and completed by more requests',
    toml: { options: 'as-is' },
    library: { settings: 'maxRows' },
  },
  // Output: where the data goes and in what form.
  {
    flag: 'output',
    shown: '-o',
    short: 'o',
    value: 'path',
    group: 'output',
    help: 'a file (written atomically), `-` for stdout (the default), or a template with `{symbol}` `{date}` `{start}` `{end}` `{command}` `{ext}`',
    toml: { key: ['path'], setBy: 'the series key path' },
    library: { settings: 'output' },
  },
  {
    flag: 'format',
    value: 'csv|raw|ndjson|json|parquet',
    choices: OUTPUT_FORMATS,
    group: 'output',
    help: 'csv: header and a symbol column; raw: the service bytes; ndjson, json: one object per record; parquet: typed columns (docs/parquet.md)',
    defaultText: "the name's: `.csv`, `.ndjson`/`.jsonl`, `.json`, `.txt` (raw), `.parquet`; else csv",
    toml: { key: ['path'], setBy: 'the extension of path' },
    library: { settings: 'format' },
  },
  {
    flag: 'compression',
    value: 'codec',
    choices: PARQUET_COMPRESSIONS,
    group: 'output',
    help: 'how `--format parquet` compresses its pages: zstd, snappy, gzip or none',
    defaultText: DEFAULT_PARQUET_COMPRESSION,
    toml: { options: 'as-is' },
    library: { settings: 'compression' },
  },
  {
    flag: 'no-header',
    group: 'output',
    help: 'csv without its header row',
    toml: { options: 'negated' },
    library: { settings: 'header' },
  },
  {
    flag: 'columns',
    value: 'list',
    kind: 'list',
    group: 'output',
    help: 'the csv columns to write, in this order (comma list of header names)',
    toml: { options: 'list' },
    library: { settings: 'columns' },
  },
  {
    flag: 'utc',
    group: 'output',
    help: 'write timestamps as ISO 8601 in UTC (2025-03-13T14:30:00Z)',
    toml: { key: ['tz'], setBy: 'the series key tz = "UTC"' },
    library: { settings: 'timeZone' },
  },
  {
    flag: 'tz',
    value: 'zone',
    group: 'output',
    help: 'write timestamps as ISO 8601 with the offset of an IANA zone, e.g. Europe/London',
    toml: { key: ['tz'], setBy: 'the series key tz' },
    library: { settings: 'timeZone' },
  },
  {
    flag: 'source-tz',
    value: 'zone',
    group: 'output',
    help: "the zone the service's timestamps are in, when not the market's",
    defaultText: 'Eastern for equities, Central otherwise',
    toml: { options: 'as-is' },
    library: { settings: 'sourceTimeZone' },
  },
  {
    flag: 'gzip',
    group: 'output',
    help: 'gzip the output (also chosen by a `.gz` file name)',
    toml: { key: ['path'], setBy: 'a .gz extension of path' },
    library: { settings: 'gzip' },
  },
  {
    flag: 'force',
    group: 'output',
    help: 'overwrite existing files (else exit 6 before any request)',
    toml: { elsewhere: 'mdget sync, which replaces what it fetches again' },
    library: { settings: 'force' },
  },
  {
    flag: 'skip-existing',
    group: 'output',
    help: 'with a template: leave existing files alone and do not request them again',
    toml: { elsewhere: 'mdget sync, which fetches only what is missing' },
    library: { settings: 'skipExisting' },
  },
  {
    flag: 'update',
    group: 'output',
    help: 'resume an existing file after its last rows (needs `--start` and a file output)',
    toml: { elsewhere: 'mdget sync, which appends to growing files' },
    library: { settings: 'update' },
  },
  {
    flag: 'no-fsync',
    group: 'output',
    help: 'skip the fsync before the rename (faster; a power loss may cut a file)',
    toml: { elsewhere: 'mdget sync, which fsyncs every file it keeps' },
    library: { settings: 'fsync' },
  },
  {
    flag: 'temp-dir',
    value: 'dir',
    group: 'output',
    help: 'where spool files go',
    defaultText: 'beside the output',
    toml: { elsewhere: 'mdget sync, which spools beside each file' },
    library: { settings: 'tempDir' },
  },
  {
    flag: 'report',
    value: 'path',
    group: 'output',
    help: 'write a JSON report: one entry per request',
    toml: byCommandLine('report'),
    library: { cliOnly: 'download() returns the results a report lists' },
  },
  {
    flag: 'dry-run',
    group: 'output',
    help: 'print the planned requests (credentials redacted) and send none',
    toml: byCommandLine('dry-run'),
    library: { cliOnly: 'plan() returns the requests' },
  },
  // Monitoring: a metrics file a monitor reads.
  {
    flag: 'metrics-file',
    value: 'path',
    group: 'monitoring',
    env: 'MDGET_METRICS_FILE',
    help: "at the end of the run, success or failure, write its metrics there in Prometheus' text format, atomically (node_exporter's textfile collector)",
    toml: byCommandLine('metrics-file'),
    library: { settings: 'metrics' },
  },
  {
    flag: 'metrics-job',
    value: 'name',
    group: 'monitoring',
    help: 'the `mdget_job` label of the metrics, so several jobs can share a collector directory',
    defaultText: "the dataset file for sync, else the metrics file's name",
    toml: byCommandLine('metrics-job'),
    library: { settings: 'metrics' },
  },
  // Network: how requests are sent.
  {
    flag: 'concurrency',
    value: 'n',
    kind: 'int',
    ...LIMITS.concurrency,
    group: 'network',
    help: 'parallel requests',
    defaultText: String(DEFAULTS.concurrency),
    toml: byCommandLine('concurrency'),
    library: { settings: 'concurrency' },
  },
  // a download's or a sync's own value wins; createClient's is the default of its runs
  {
    flag: 'retries',
    value: 'n',
    kind: 'int',
    ...LIMITS.retries,
    group: 'network',
    help: 'retries on network errors, 429 and 5xx, with backoff and Retry-After',
    defaultText: String(DEFAULTS.retries),
    toml: byCommandLine('retries'),
    library: { settings: 'retries', client: 'retries' },
  },
  {
    flag: 'timeout',
    value: 'duration',
    kind: 'duration',
    group: 'network',
    help: 'per-request wait for headers or for the next body bytes',
    defaultText: `${DEFAULTS.timeoutMs / 1000}s`,
    toml: byCommandLine('timeout'),
    library: { settings: 'timeoutMs', client: 'timeoutMs' },
  },
  {
    flag: 'rate',
    value: 'n/s',
    kind: 'rate',
    group: 'network',
    help: 'most requests per second across the run (n, n/s, n/m or n/h); slower after a 429',
    toml: byCommandLine('rate'),
    library: { settings: 'rate', client: 'rate' },
  },
  // Proxies (docs/cli.md#proxies): curl's variables, and a flag over them; a proxy URL may hold a
  // password, which a dataset file never does.
  {
    flag: 'proxy',
    value: 'url',
    negatable: true,
    group: 'network',
    help: "send every request through this proxy, `http://[user:password@]host:port`, NO_PROXY still applying; `--proxy ''`: none",
    defaultText: 'HTTP_PROXY for http://, HTTPS_PROXY for https://, from the environment or .env',
    toml: {
      elsewhere:
        'the command line (mdget sync --proxy) or HTTPS_PROXY and NO_PROXY in the environment or .env',
    },
    library: { client: 'proxy' },
  },
  // Configuration: flag > environment > dotenv file > default (docs/cli.md#configuration).
  {
    flag: 'username',
    value: 'name',
    group: 'config',
    env: 'MDGET_USERNAME',
    help: 'account user name',
    toml: FROM_ENVIRONMENT,
    library: { config: 'username' },
  },
  {
    flag: 'password',
    value: 'value',
    hidden: true,
    group: 'config',
    help: 'refused: a password on the command line shows in ps and shell history',
    toml: FROM_ENVIRONMENT,
    library: { config: 'password' },
  },
  {
    flag: 'password-stdin',
    group: 'config',
    env: 'MDGET_PASSWORD',
    help: 'read the password from the first line of standard input',
    toml: FROM_ENVIRONMENT,
    library: { cliOnly: 'the library takes the password in its config' },
  },
  {
    flag: 'historical-url',
    value: 'url',
    group: 'config',
    env: 'MDGET_HISTORICAL_URL',
    help: 'base of the `.ashx` endpoints',
    toml: FROM_ENVIRONMENT,
    library: { config: 'historicalUrl' },
  },
  {
    flag: 'futures-options-url',
    value: 'url',
    group: 'config',
    env: 'MDGET_FUTURES_OPTIONS_URL',
    help: 'base of `futuresoptions` and `futuresoptions/json`',
    toml: FROM_ENVIRONMENT,
    library: { config: 'futuresOptionsUrl' },
  },
  {
    flag: 'extras-url',
    value: 'url',
    group: 'config',
    env: 'MDGET_EXTRAS_URL',
    help: 'base of the exchanges list',
    toml: FROM_ENVIRONMENT,
    library: { config: 'extrasUrl' },
  },
  {
    flag: 'exchanges-path',
    value: 'name',
    group: 'config',
    env: 'MDGET_EXCHANGES_PATH',
    help: 'exchanges-list resource under the extras URL, `<name>.php`',
    defaultText: 'exchanges',
    toml: FROM_ENVIRONMENT,
    library: { config: 'exchangesPath' },
  },
  {
    flag: 'instruments-url',
    value: 'url',
    group: 'config',
    env: 'MDGET_INSTRUMENTS_URL',
    help: 'base of `<exchange_id>-instruments.json`',
    toml: FROM_ENVIRONMENT,
    library: { config: 'instrumentsUrl' },
  },
  {
    flag: 'env-file',
    value: 'path',
    group: 'config',
    help: 'dotenv file to read',
    defaultText: '`.env` in the working directory, if present',
    toml: FROM_ENVIRONMENT,
    library: { cliOnly: 'the library reads no environment' },
  },
  // Messages: stderr only; stdout carries data.
  {
    flag: 'progress',
    negatable: true,
    group: 'messages',
    help: 'progress on stderr: an overall line and one per download on a terminal, a plain line every 2 s otherwise',
    defaultText: 'only when stderr is a terminal',
    toml: byCommandLine('progress'),
    library: { cliOnly: STDERR },
  },
  {
    flag: 'quiet',
    short: 'q',
    group: 'messages',
    help: 'nothing on stderr but errors',
    toml: byCommandLine('quiet'),
    library: { cliOnly: STDERR },
  },
  {
    flag: 'verbose',
    short: 'v',
    group: 'messages',
    help: 'log requests (credentials redacted) and retries on stderr',
    toml: byCommandLine('verbose'),
    library: { cliOnly: STDERR },
  },
  // for unattended runs: log lines a pipeline parses
  {
    flag: 'log-format',
    value: 'text|json',
    choices: LOG_FORMATS,
    group: 'messages',
    env: 'MDGET_LOG_FORMAT',
    help: 'json: every line on stderr is one JSON object (time, level, msg, and code, exit, url, symbol, series, file, rows, bytes where they apply); no progress bars, no colour',
    defaultText: 'text',
    toml: byCommandLine('log-format'),
    library: { cliOnly: STDERR },
  },
] as const satisfies readonly OptionRow[];

/** The row of a flag (without dashes). */
export const optionRowOf = (flag: string): OptionRow | undefined =>
  (OPTION_ROWS as readonly OptionRow[]).find((row) => row.flag === flag);

/** The row the library's name of an option comes from (`windowMs` → --window). */
export function rowOfOption(option: string): OptionRow | undefined {
  return (OPTION_ROWS as readonly OptionRow[]).find((row) => libraryName(row) === option);
}

/** The library's name of a row's option, if the library has it. */
export function libraryName(row: OptionRow): string | undefined {
  const place = row.library as Partial<Record<'query' | 'settings' | 'client' | 'config', string>>;
  return place.query ?? place.settings ?? place.client ?? place.config;
}

/** Keys a query takes besides its parameters: how each picks its endpoint. */
const SELECTORS: Record<string, readonly string[]> = {
  minutes: ['variant'],
  daterange: ['database'],
  futopts: ['json'],
};

/** Every key a query of `command` takes, for the library's check of unknown keys. */
export function queryKeys(command: string): string[] {
  const params = ((COMMAND_PARAMS as Record<string, readonly ParamSpec[]>)[command] ?? [])
    .filter((spec) => spec.query !== '')
    .map((s) => optionKey(s.flag));
  // `columns` cuts a query's records as it cuts a download's rows
  return ['symbols', 'extra', 'columns', ...params, ...(SELECTORS[command] ?? [])];
}

/** Every key of download()'s settings: the rows the library takes there, and its signal. */
export const SETTINGS_KEYS: readonly string[] = [
  ...new Set(
    (OPTION_ROWS as readonly OptionRow[]).flatMap((row) =>
      'settings' in row.library && row.library.settings !== 'output' ? [row.library.settings] : [],
    ),
  ),
  'signal',
];

/** Every key of createClient's options: the rows the library takes there, and what only a library has. */
export const CLIENT_KEYS: readonly string[] = [
  ...(OPTION_ROWS as readonly OptionRow[]).flatMap((row) =>
    'client' in row.library ? [row.library.client] : [],
  ),
  'maxRows',
  'dispatcher',
  'listeners',
  'now',
  'ca',
];
