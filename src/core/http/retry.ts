import { DEFAULTS } from '../model/defaults.js';

/** Retry policy for network errors, 429 and 5xx (--retries): exponential backoff with full jitter. */
export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: DEFAULTS.retries, baseDelayMs: 500, maxDelayMs: 30_000 };

/** The policy with `retries` tries after the first (default DEFAULTS.retries). */
export const retryPolicy = (retries: number = DEFAULTS.retries): RetryPolicy => ({
  ...DEFAULT_RETRY,
  retries,
});

/**
 * Milliseconds to wait before retry number `attempt` (1-based). A Retry-After header (seconds or an
 * HTTP date) wins when present, capped at maxDelayMs; otherwise base·2^(attempt-1) with full jitter.
 */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  retryAfter: string | undefined,
  nowMs: number,
  random: () => number,
): number {
  const ms = retryAfterMs(retryAfter, nowMs);
  if (ms !== undefined) return Math.min(ms, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined when absent or bad. */
export function retryAfterMs(retryAfter: string | undefined, nowMs: number): number | undefined {
  if (retryAfter === undefined || retryAfter.trim() === '') return undefined;
  const seconds = Number(retryAfter);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - nowMs;
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}
