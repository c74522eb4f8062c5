/**
 * Every exit status mdget returns, and the one place that maps a cause to it (docs/cli.md#exit-codes): error
 * codes, usage errors found by the parser, signals. Help, the README and docs/cli.md list them from
 * EXIT_CODES.
 */
import type { ErrorCode } from '../core/model/errors.js';

/** The statuses that have no error code behind them. */
export const EXIT = { ok: 0, internal: 1, usage: 2 } as const;

/** A signal stops the run like SIGINT (abort, temporary files removed); the status is 128 + its number. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT;

/** The exit status for an error code. No default: a new code without a case fails the typecheck. */
export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'MDGET_USAGE':
      return 2;
    case 'MDGET_CONFIG':
      return 3;
    case 'MDGET_SERVICE':
      return 4;
    case 'MDGET_HTTP':
    case 'MDGET_NETWORK':
      return 5;
    case 'MDGET_IO':
      return 6;
    case 'MDGET_PARTIAL':
      return 7;
    case 'MDGET_ABORTED':
      return SIGNAL_EXIT.SIGINT;
    case 'MDGET_FINDINGS':
      return 8;
  }
}

/**
 * The status for an error commander threw (exitOverride): help and version are successes, a help
 * shown because a command was missing and every parse error are usage errors. Undefined: not commander's.
 */
export function exitCodeForParser(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('commander.')) return undefined;
  const status = (error as { exitCode?: number }).exitCode;
  return code === 'commander.helpDisplayed' || code === 'commander.version' || status === 0
    ? EXIT.ok
    : EXIT.usage;
}

/** The status of a run a signal stopped. */
export const exitCodeForSignal = (signal: StopSignal | undefined): number =>
  signal ? SIGNAL_EXIT[signal] : exitCodeFor('MDGET_ABORTED');

/** Every status and what it means, for `mdget --help`, the README and docs/cli.md. */
export const EXIT_CODES: readonly { code: number; label: string; meaning: string }[] = [
  {
    code: EXIT.ok,
    label: 'ok',
    meaning:
      'everything requested was written (zero records is success, with a note on stderr); also when the reader of stdout went away (`| head`)',
  },
  {
    code: EXIT.internal,
    label: 'internal error',
    meaning: 'internal error (a bug: message plus a request to report it)',
  },
  {
    code: exitCodeFor('MDGET_USAGE'),
    label: 'usage',
    meaning: 'usage error: unknown flag, bad value, bad date, ambiguous exchange (no request sent)',
  },
  {
    code: exitCodeFor('MDGET_CONFIG'),
    label: 'configuration',
    meaning: 'configuration error: credentials or a base URL missing or malformed (no request sent)',
  },
  {
    code: exitCodeFor('MDGET_SERVICE'),
    label: 'refused by the service',
    meaning:
      'the service refused: an in-band `Error` line, HTTP 4xx other than 429, a metadata count mismatch, an answer from before the requested start',
  },
  {
    code: exitCodeFor('MDGET_NETWORK'),
    label: 'network or server',
    meaning: 'network or server failure after all retries (connection, timeout, 5xx, 429, truncated body)',
  },
  {
    code: exitCodeFor('MDGET_IO'),
    label: 'output',
    meaning:
      'output error: file exists without `--force`, `--update` of a file made another way, changed or unknown, cannot write, disk full',
  },
  {
    code: exitCodeFor('MDGET_PARTIAL'),
    label: 'partial',
    meaning: 'partial: some outputs of a batch failed, the rest were written; `--report` lists which',
  },
  {
    code: exitCodeFor('MDGET_FINDINGS'),
    label: 'findings',
    meaning: '`mdget verify` found a file missing, changed or unknown, or a suspicious gap (one line each)',
  },
  {
    code: SIGNAL_EXIT.SIGHUP,
    label: 'hang-up',
    meaning: 'hang-up (SIGHUP, a closed terminal): stopped as for 130',
  },
  {
    code: SIGNAL_EXIT.SIGINT,
    label: 'interrupted',
    meaning: 'interrupted (SIGINT); no partial file is left under a final name',
  },
  {
    code: SIGNAL_EXIT.SIGTERM,
    label: 'terminated',
    meaning: "terminated (SIGTERM, e.g. a job runner's timeout): stopped as for 130",
  },
];
