import { DEFAULTS } from '../model/defaults.js';
import type { RunOptions } from '../model/options.js';

/**
 * How a run's requests travel, every default applied: the one record the agent (sockets, timeout), the
 * rate limiter and the scheduler's retries are built from, for the CLI and the library alike, and what
 * `--dry-run` shows.
 */
export interface TransportSettings {
  /** Most requests in flight at once. */
  concurrency: number;
  /** Tries after the first of each request, in the whole run. */
  retries: number;
  /** Wait for headers, or for the next bytes of a body. */
  timeoutMs: number;
  /** Most requests per second; absent: no limit. */
  rate?: number;
  /** Sockets per host: never fewer than the requests in flight. */
  sockets: number;
}

/** The transport of a run from its options (checked by rules.ts); defaults from model/defaults.ts. */
export function transportSettingsOf(
  options: Pick<RunOptions, 'concurrency' | 'retries' | 'timeoutMs' | 'rate'>,
): TransportSettings {
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  return {
    concurrency,
    retries: options.retries ?? DEFAULTS.retries,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    ...(options.rate === undefined ? {} : { rate: options.rate }),
    sockets: Math.max(concurrency, DEFAULTS.sockets),
  };
}

/** One line for people: `concurrency 4, retries 3, timeout 60 s, rate unlimited, 8 sockets per host`. */
export function describeTransport(settings: TransportSettings): string {
  const rate = settings.rate === undefined ? 'unlimited' : `${settings.rate}/s`;
  return `concurrency ${settings.concurrency}, retries ${settings.retries}, timeout ${settings.timeoutMs / 1000} s, rate ${rate}, ${settings.sockets} sockets per host`;
}
