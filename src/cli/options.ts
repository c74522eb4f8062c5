/**
 * Every option of the CLI but the service's query parameters (those are rows of core/params.ts), declared
 * once as data. The rows yield the commander options, their parsing, --help, the option tables
 * of docs/cli.md and the types of the parsed flags; nothing else spells a flag, its help or its default.
 */

import { DEFAULTS, LIMITS } from '../core/model/defaults.js';
import { DEFAULT_PARQUET_COMPRESSION, OUTPUT_FORMATS, PARQUET_COMPRESSIONS } from '../core/model/formats.js';
import { CONFIG_OPTIONS } from './options-config.js';
import { DATASET_OPTIONS } from './options-dataset.js';
import { TELEMETRY_OPTIONS } from './options-telemetry.js';

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
} as const;
export type OptionGroup = keyof typeof OPTION_GROUPS;

/** How an option's value is read: every kind but `string` is checked and converted at parse time. */
export type ValueKind = 'string' | 'int' | 'duration' | 'rate' | 'list' | 'shard';

export interface OptionSpec {
  /** The long flag without dashes when the key is not it (a command's own variant, e.g. `--format`). */
  readonly flag?: string;
  readonly short?: string;
  /** The value's name in help (`<path>`); a switch has none. */
  readonly value?: string;
  readonly kind?: ValueKind;
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
  readonly help: string;
  /** Shown as "(default: …)"; the flag mappers apply the value, so "not given" stays visible to them. */
  readonly defaultText?: string;
  /** The variable that sets the same value (configuration precedence: flag > env > .env > default). */
  readonly env?: string;
}

export const OPTIONS = {
  // Request: what is asked of the service, besides the query parameters of each command.
  param: {
    value: 'key=value',
    repeatable: true,
    group: 'request',
    help: 'any other query parameter, sent as given (repeatable); not the credentials, the symbols or roots (give them as arguments), nor one a flag sets',
  },
  'symbols-file': {
    value: 'path',
    group: 'request',
    help: 'more symbols, one per line (`-` = stdin; blank lines and `#` comments ignored)',
  },
  shard: {
    value: 'i/n',
    kind: 'shard',
    group: 'request',
    help: 'only the i-th of n deterministic shares of the planned requests (CI matrices, batch arrays)',
  },
  window: {
    value: 'duration',
    kind: 'duration',
    group: 'request',
    help: 'length of the windows a long range is split into, e.g. 1h, 7d',
    defaultText: 'sized from the rows a day holds',
  },
  'max-rows': {
    value: 'n',
    kind: 'int',
    min: 1,
    group: 'request',
    env: 'MDGET_MAX_ROWS',
    help: 'rows at which a response is taken as cut by the server and completed by more requests',
  },

  // Output: where the data goes and in what form.
  output: {
    short: 'o',
    value: 'path',
    group: 'output',
    help: 'a file (written atomically), `-` for stdout (the default), or a template with `{symbol}` `{date}` `{start}` `{end}` `{command}` `{ext}`',
  },
  'file-output': {
    flag: 'output',
    short: 'o',
    value: 'path',
    group: 'output',
    help: 'a file, written atomically (by rename), or `-` for stdout (the default)',
  },
  format: {
    value: 'csv|raw|ndjson|json|parquet',
    choices: OUTPUT_FORMATS,
    group: 'output',
    help: 'csv: header and a symbol column; raw: the service bytes; ndjson, json: one object per record; parquet: typed columns (docs/parquet.md)',
    defaultText: "the name's: `.csv`, `.ndjson`/`.jsonl`, `.json`, `.txt` (raw), `.parquet`; else csv",
  },
  'futopts-format': {
    flag: 'format',
    value: 'csv|raw|ndjson|json|parquet',
    choices: OUTPUT_FORMATS,
    group: 'output',
    help: 'csv: header and a symbol column; raw: the service bytes; ndjson, json: one object per record; parquet: typed columns; with `--json`, json or raw only',
    defaultText: "the name's (`.csv`, `.ndjson`, `.json`, `.txt`, `.parquet`); else csv, json with `--json`",
  },
  compression: {
    value: 'codec',
    choices: PARQUET_COMPRESSIONS,
    group: 'output',
    help: 'how `--format parquet` compresses its pages: zstd, snappy, gzip or none',
    defaultText: DEFAULT_PARQUET_COMPRESSION,
  },
  'no-header': { group: 'output', help: 'csv without its header row' },
  columns: {
    value: 'list',
    kind: 'list',
    group: 'output',
    help: 'the csv columns to write, in this order (comma list of header names)',
  },
  utc: { group: 'output', help: 'write timestamps as ISO 8601 in UTC (2025-03-13T14:30:00Z)' },
  tz: {
    value: 'zone',
    group: 'output',
    help: 'write timestamps as ISO 8601 with the offset of an IANA zone, e.g. Europe/London',
  },
  'source-tz': {
    value: 'zone',
    group: 'output',
    help: "the zone the service's timestamps are in, when not the market's",
    defaultText: 'Eastern for equities, Central otherwise',
  },
  gzip: { group: 'output', help: 'gzip the output (also chosen by a `.gz` file name)' },
  force: { group: 'output', help: 'overwrite existing files (else exit 6 before any request)' },
  'skip-existing': {
    group: 'output',
    help: 'with a template: leave existing files alone and do not request them again',
  },
  update: {
    group: 'output',
    help: 'resume an existing file after its last rows (needs `--start` and a file output)',
  },
  'no-fsync': {
    group: 'output',
    help: 'skip the fsync before the rename (faster; a power loss may cut a file)',
  },
  'temp-dir': {
    value: 'dir',
    group: 'output',
    help: 'where spool files go',
    defaultText: 'beside the output',
  },
  report: { value: 'path', group: 'output', help: 'write a JSON report: one entry per request' },
  'dry-run': { group: 'output', help: 'print the planned requests (credentials redacted) and send none' },
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

  // Network: how requests are sent.
  concurrency: {
    value: 'n',
    kind: 'int',
    ...LIMITS.concurrency,
    group: 'network',
    help: 'parallel requests',
    defaultText: String(DEFAULTS.concurrency),
  },
  retries: {
    value: 'n',
    kind: 'int',
    ...LIMITS.retries,
    group: 'network',
    help: 'retries on network errors, 429 and 5xx, with backoff and Retry-After',
    defaultText: String(DEFAULTS.retries),
  },
  timeout: {
    value: 'duration',
    kind: 'duration',
    group: 'network',
    help: 'per-request wait for headers or for the next body bytes',
    defaultText: `${DEFAULTS.timeoutMs / 1000}s`,
  },
  rate: {
    value: 'n/s',
    kind: 'rate',
    group: 'network',
    help: 'most requests per second across the run (n, n/s, n/m or n/h); slower after a 429',
  },

  ...CONFIG_OPTIONS,

  // Proxies (docs/cli.md#proxies): curl's variables, and a flag over them.
  proxy: {
    value: 'url',
    negatable: true,
    group: 'network',
    help: "send every request through this proxy, `http://[user:password@]host:port`, NO_PROXY still applying; `--proxy ''`: none",
    defaultText: 'HTTP_PROXY for http://, HTTPS_PROXY for https://, from the environment or .env',
  },

  // Messages: stderr only; stdout carries data.
  progress: {
    negatable: true,
    group: 'messages',
    help: 'progress on stderr: an overall line and one per download on a terminal, a plain line every 2 s otherwise',
    defaultText: 'only when stderr is a terminal',
  },
  quiet: { short: 'q', group: 'messages', help: 'nothing on stderr but errors' },
  verbose: {
    short: 'v',
    group: 'messages',
    help: 'log requests (credentials redacted) and retries on stderr',
  },
  ...DATASET_OPTIONS,
  ...TELEMETRY_OPTIONS,
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/** The long flag of an option ('exchanges-format' → 'format'). */
export const flagOf = (name: OptionName): string => (OPTIONS[name] as OptionSpec).flag ?? name;
