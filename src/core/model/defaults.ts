import type { Config } from './config.js';

/**
 * Every default and bound of a download, in one place: the library applies them, the CLI shows them in
 * its help and checks its flags against them.
 */
export const DEFAULTS = {
  /** Requests in flight at once. */
  concurrency: 4,
  /** Wait for headers, or for the next bytes of a body. */
  timeoutMs: 60_000,
  /** Tries after the first, on network errors, 429 and 5xx. */
  retries: 3,
  /** The fewest sockets per host: enough for the default concurrency and the requests a run adds. */
  sockets: 8,
  format: 'csv',
  order: 'asc',
} as const;

/** The bounds of the whole-number options, by the library's name (the option table spreads them). */
export const LIMITS = {
  concurrency: { min: 1, max: 64 },
  retries: { min: 0, max: 20 },
  maxRows: { min: 1 },
} as const;

/** The configuration's defaults, the same for the CLI (under flag, environment and .env) and the library. */
export const CONFIG_DEFAULTS = { exchangesPath: 'exchanges' } as const satisfies Partial<Config>;
