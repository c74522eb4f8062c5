/** The dataset commands as rows of the command table (command-table.ts): sync, status and verify. */
import { CONFIG_OPTIONS } from './config-options.js';

const FILE_ARG = [
  { name: 'file', help: 'the dataset file (default: mdget.toml in the working directory)' },
] as const;

export const DATASET_COMMANDS = [
  {
    name: 'sync',
    section: 'dataset',
    summary: 'bring a dataset up to date: fetch what is missing, provisional or changed, and record it',
    about:
      'Reads the dataset file, fetches every file that has no ledger row, whose row is provisional, or whose file is missing, changed or made with other settings, appends to files that grow once their bytes are checked against their row, refreshes the reference files only when the service says they changed, and records each file in `<root>/.mdget/ledger.sqlite` once it is in place. The days up to "now" are planned: the machine\'s clock, or the instant MDGET_NOW fixes (environment or --env-file; `mdget emulator --set now=…` prints it). See docs/dataset.md.',
    args: FILE_ARG,
    options: [
      'sync-dry-run',
      'repair',
      'wait',
      'sync-shard',
      'report',
      'concurrency',
      'retries',
      'timeout',
      'rate',
      ...CONFIG_OPTIONS,
      'metrics-file',
      'metrics-job',
      'progress',
      'quiet',
      'verbose',
      'log-format',
    ],
    examples: [
      'mdget sync',
      'mdget sync research.toml --dry-run',
      'mdget sync --shard 2/4 --concurrency 8',
      'mdget sync --repair',
    ],
  },
  {
    name: 'status',
    section: 'dataset',
    summary: 'where a dataset stands, per series, from its ledgers; sends no request',
    about:
      'One row a series: files planned, complete, provisional, missing, failed in the last sync, rows, bytes on disk; and the last sync. Reads every shard’s ledger. Sends no request.',
    args: FILE_ARG,
    options: ['json', 'status-metrics', 'metrics-job', 'quiet', 'log-format'],
    examples: ['mdget status', 'mdget status research.toml --json | jq .complete'],
  },
  {
    name: 'verify',
    section: 'dataset',
    summary: 'prove the files on disk are what was fetched; report unknown files and suspicious gaps',
    about:
      'Re-hashes every file the ledgers record and reports those missing, changed or unreadable, files under a series’ path no ledger knows, and suspicious gaps (a weekday with no rows between days with rows; more than four weekdays without a bar). Exit 8 when anything is found; `mdget sync --repair` fetches the missing and changed again.',
    args: FILE_ARG,
    options: ['json', 'quiet', 'log-format'],
    examples: ['mdget verify', 'mdget verify --json > findings.json || mdget sync --repair'],
  },
] as const;
