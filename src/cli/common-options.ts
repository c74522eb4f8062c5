import { type Command, Option } from 'commander';
import { OUTPUT_FORMATS } from '../core/response-transform.js';
import { parseDuration, parseRate } from './duration.js';
import { parseIntFlag } from './param-options.js';

/** Configuration flags (cli.md table); the password is deliberately not among them. */
export function addConfigOptions(command: Command): Command {
  return command
    .option('--username <name>', 'account user name (MDGET_USERNAME)')
    .option(
      '--password-stdin',
      'read the password from the first line of standard input (else MDGET_PASSWORD)',
    )
    .option('--historical-url <url>', 'base of the .ashx endpoints (MDGET_HISTORICAL_URL)')
    .option('--futures-options-url <url>', 'base of futuresoptions (MDGET_FUTURES_OPTIONS_URL)')
    .option('--extras-url <url>', 'base of the exchanges list (MDGET_EXTRAS_URL)')
    .option('--exchanges-path <name>', 'exchanges-list resource name, <name>.php (MDGET_EXCHANGES_PATH)')
    .option('--instruments-url <url>', 'base of <id>-instruments.json (MDGET_INSTRUMENTS_URL)')
    .option('--env-file <path>', 'dotenv file to read (default: .env in the working directory, if present)')
    .addOption(new Option('--password <value>').hideHelp())
    .option('-q, --quiet', 'print nothing but errors on stderr')
    .option('-v, --verbose', 'log requests (credentials redacted) and retries on stderr');
}

/** The common options of every download command (cli.md). */
export function addDownloadOptions(command: Command, formats: readonly string[] = OUTPUT_FORMATS): Command {
  return command
    .option(
      '-o, --output <path>',
      'file, `-` for stdout, or a template with {symbol} {date} {start} {end} {command} {ext}',
      '-',
    )
    .option('--force', 'overwrite existing files')
    .option(
      '--no-fsync',
      'skip the fsync before the rename (faster; a power loss may then leave a short file)',
    )
    .option('--skip-existing', 'leave existing output files alone and do not request them again')
    .addOption(new Option('--format <fmt>', 'output format').choices(formats).default('csv'))
    .option('--no-header', 'csv without its header row')
    .option('--param <key=value>', 'extra query parameter passed through unchanged (repeatable)', collect, [])
    .option(
      '--symbols-file <path>',
      'more symbols, one per line (`-` = stdin; blank lines and # comments ignored)',
    )
    .option(
      '--concurrency <n>',
      'parallel requests for separate outputs',
      (v) => parseIntFlag(v, '--concurrency', 1, 64),
      4,
    )
    .option(
      '--retries <n>',
      'retries on network errors, 429 and 5xx',
      (v) => parseIntFlag(v, '--retries', 0, 20),
      3,
    )
    .option('--timeout <duration>', 'per-request timeout without data (e.g. 30s, 2m)', parseDuration, 60_000)
    .option(
      '--rate <n/s>',
      'most requests per second across the run; slows down on 429 and Retry-After',
      parseRate,
    )
    .option(
      '--window <duration>',
      'length of the windows a long range is split into (e.g. 1h, 7d; default: sized from the rows a day holds)',
      parseDuration,
    )
    .option(
      '--max-rows <n>',
      'rows at which a response is taken as cut by the server and completed by further requests (MDGET_MAX_ROWS)',
      (v) => parseIntFlag(v, '--max-rows', 1),
    )
    .option('--update', 'with a file output that exists: fetch only what is newer than its last row')
    .option('--temp-dir <dir>', 'where spool files go (default: beside the output)')
    .option('--report <path>', 'write a JSON report: one entry per request')
    .option('--dry-run', 'print the planned requests (credentials redacted) and send none')
    .option('--shard <i/n>', 'only the i-th of n deterministic shares of the planned requests')
    .option('--progress', 'progress bars on stderr (default: when stderr is a terminal)')
    .option('--no-progress', 'no progress bars');
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
