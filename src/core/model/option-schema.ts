/**
 * Every option of a download, declared once: its flag, where a dataset file sets it, and what the library
 * calls it. The CLI's messages (src/cli/flag-names.ts), the dataset file's options table and its
 * file:line errors (dataset/series-options.ts, dataset-file.ts) and the library's checks of unknown keys
 * (client.ts) are read from these rows; each service parameter is a row of params.ts, which the same
 * readers take as `options.<flag>` and `optionKey(flag)`. Help and parsing of the flags are the CLI's
 * rows (src/cli/options.ts), which a test holds to this table.
 */
import { LIMITS } from './defaults.js';
import { COMMAND_PARAMS, optionKey, type ParamSpec } from './params.js';

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

export interface OptionRow {
  /** The long flag without dashes, as commander and docs/cli.md spell it. */
  readonly flag: string;
  /** How a message names it on the command line, when not `--<flag>`. */
  readonly shown?: string;
  readonly toml: TomlPlace;
  readonly library: LibraryPlace;
  /** Bounds of a whole number, shared by the flag's parser and the library's check. */
  readonly bounds?: { readonly min: number; readonly max?: number };
}

const byCommandLine = (flag: string): TomlPlace => ({ elsewhere: `the command line (mdget sync --${flag})` });
/** Credentials and base URLs: never in a dataset file (dataset-file.ts refuses them as secrets). */
const FROM_ENVIRONMENT: TomlPlace = { elsewhere: 'the environment or a dotenv file' };
const STDERR = "stderr is the CLI's: the library tells its listeners (createClient's listeners)";

/** The options of the download commands, but the service parameters (params.ts). */
export const OPTION_ROWS = [
  // what is asked
  {
    flag: 'symbols-file',
    toml: { key: ['symbols_file'], setBy: 'the series key symbols_file' },
    library: { cliOnly: 'the library takes the list itself (symbols)' },
  },
  { flag: 'param', toml: { options: 'pairs' }, library: { query: 'extra' } },
  { flag: 'shard', toml: byCommandLine('shard'), library: { settings: 'shard' } },
  { flag: 'window', toml: { options: 'duration' }, library: { settings: 'windowMs' } },
  { flag: 'max-rows', toml: { options: 'as-is' }, library: { settings: 'maxRows' }, bounds: { min: 1 } },
  // where the data goes and in what form
  {
    flag: 'output',
    shown: '-o',
    toml: { key: ['path'], setBy: 'the series key path' },
    library: { settings: 'output' },
  },
  {
    flag: 'format',
    toml: { key: ['path'], setBy: 'the extension of path' },
    library: { settings: 'format' },
  },
  { flag: 'compression', toml: { options: 'as-is' }, library: { settings: 'compression' } },
  { flag: 'no-header', toml: { options: 'negated' }, library: { settings: 'header' } },
  { flag: 'columns', toml: { options: 'list' }, library: { settings: 'columns' } },
  {
    flag: 'utc',
    toml: { key: ['tz'], setBy: 'the series key tz = "UTC"' },
    library: { settings: 'timeZone' },
  },
  { flag: 'tz', toml: { key: ['tz'], setBy: 'the series key tz' }, library: { settings: 'timeZone' } },
  { flag: 'source-tz', toml: { options: 'as-is' }, library: { settings: 'sourceTimeZone' } },
  { flag: 'gzip', toml: { key: ['path'], setBy: 'a .gz extension of path' }, library: { settings: 'gzip' } },
  {
    flag: 'force',
    toml: { elsewhere: 'mdget sync, which replaces what it fetches again' },
    library: { settings: 'force' },
  },
  {
    flag: 'skip-existing',
    toml: { elsewhere: 'mdget sync, which fetches only what is missing' },
    library: { settings: 'skipExisting' },
  },
  {
    flag: 'update',
    toml: { elsewhere: 'mdget sync, which appends to growing files' },
    library: { settings: 'update' },
  },
  {
    flag: 'no-fsync',
    toml: { elsewhere: 'mdget sync, which fsyncs every file it keeps' },
    library: { settings: 'fsync' },
  },
  {
    flag: 'temp-dir',
    toml: { elsewhere: 'mdget sync, which spools beside each file' },
    library: { settings: 'tempDir' },
  },
  {
    flag: 'report',
    toml: byCommandLine('report'),
    library: { cliOnly: 'download() returns the results a report lists' },
  },
  { flag: 'dry-run', toml: byCommandLine('dry-run'), library: { cliOnly: 'plan() returns the requests' } },
  { flag: 'metrics-file', toml: byCommandLine('metrics-file'), library: { settings: 'metrics' } },
  { flag: 'metrics-job', toml: byCommandLine('metrics-job'), library: { settings: 'metrics' } },
  // how requests are sent
  {
    flag: 'concurrency',
    toml: byCommandLine('concurrency'),
    library: { settings: 'concurrency' },
    bounds: LIMITS.concurrency,
  },
  // a download's or a sync's own value wins; createClient's is the default of its runs
  {
    flag: 'retries',
    toml: byCommandLine('retries'),
    library: { settings: 'retries', client: 'retries' },
    bounds: LIMITS.retries,
  },
  {
    flag: 'timeout',
    toml: byCommandLine('timeout'),
    library: { settings: 'timeoutMs', client: 'timeoutMs' },
  },
  { flag: 'rate', toml: byCommandLine('rate'), library: { settings: 'rate', client: 'rate' } },
  // a proxy URL may hold a password, which a dataset file never does
  {
    flag: 'proxy',
    toml: {
      elsewhere:
        'the command line (mdget sync --proxy) or HTTPS_PROXY and NO_PROXY in the environment or .env',
    },
    library: { client: 'proxy' },
  },
  // credentials and configuration
  { flag: 'username', toml: FROM_ENVIRONMENT, library: { config: 'username' } },
  { flag: 'password', toml: FROM_ENVIRONMENT, library: { config: 'password' } },
  {
    flag: 'password-stdin',
    toml: FROM_ENVIRONMENT,
    library: { cliOnly: 'the library takes the password in its config' },
  },
  { flag: 'historical-url', toml: FROM_ENVIRONMENT, library: { config: 'historicalUrl' } },
  { flag: 'futures-options-url', toml: FROM_ENVIRONMENT, library: { config: 'futuresOptionsUrl' } },
  { flag: 'extras-url', toml: FROM_ENVIRONMENT, library: { config: 'extrasUrl' } },
  { flag: 'exchanges-path', toml: FROM_ENVIRONMENT, library: { config: 'exchangesPath' } },
  { flag: 'instruments-url', toml: FROM_ENVIRONMENT, library: { config: 'instrumentsUrl' } },
  { flag: 'env-file', toml: FROM_ENVIRONMENT, library: { cliOnly: 'the library reads no environment' } },
  // messages
  { flag: 'progress', toml: byCommandLine('progress'), library: { cliOnly: STDERR } },
  { flag: 'quiet', toml: byCommandLine('quiet'), library: { cliOnly: STDERR } },
  { flag: 'verbose', toml: byCommandLine('verbose'), library: { cliOnly: STDERR } },
  { flag: 'log-format', toml: byCommandLine('log-format'), library: { cliOnly: STDERR } },
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
