import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import {
  attemptGet,
  type Opener,
  type OpenOptions,
  type OpenResponse,
  REQUEST_HEADERS,
} from '../http/exchange.js';
import { networkError } from '../http/network-errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { type RetryPolicy, retryAfterMs, retryDelayMs } from '../http/retry.js';
import { interruptedError } from '../model/errors.js';
import { redactText, redactUrl } from '../model/redact.js';

/** A retry about to wait: the redacted URL, which try failed, the wait and why. */
export interface RetryInfo {
  url: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

/** How requests go out: the dispatcher, the retry policy, the pacing, the abort signal, the secrets. */
export interface Transport {
  dispatcher: Dispatcher;
  retry: RetryPolicy;
  /** Pacing shared by every request (--rate, Retry-After); none: requests start at once. */
  limiter?: RateLimiter;
  signal?: AbortSignal;
  secrets?: readonly (string | undefined)[];
  random?: () => number;
  onRetry?: (info: RetryInfo) => void;
}

/** A transport and the most requests in flight at once, whatever the outputs (--concurrency). */
export interface SchedulerOptions extends Transport {
  concurrency: number;
}

/** What the requests of a run came to, for the report and the summary. */
export interface RequestCounts {
  /** HTTP requests sent, retries included. */
  sent: number;
  retries: number;
  /** Most requests in flight at once. */
  peakInFlight: number;
}

interface Waiter {
  grant(): void;
}

/**
 * The one scheduler of a run: every request waits here for one of `concurrency` slots, then for the rate
 * limiter, and is tried again after a network error, a 429 or a 5xx. A slot is held from the first try to
 * the end of the body, retry waits included, so `--concurrency n` bounds the requests in flight however
 * many outputs, read-aheads and continuations the run has. Requests an output waits for (`next`) take a
 * free slot before read-aheads (`ahead`).
 */
export class RequestScheduler implements Opener {
  readonly counts: RequestCounts = { sent: 0, retries: 0, peakInFlight: 0 };
  private inFlight = 0;
  /**
   * Failed tries of each URL in this run, a body broken after its headers and the restarts of its output
   * included: retries have this one owner. A request sent again after an answer (a stalled continuation)
   * has not failed, so it spends none.
   */
  private readonly failures = new Map<string, number>();
  private readonly queues: Record<'next' | 'ahead', Waiter[]> = { next: [], ahead: [] };

  constructor(private readonly options: SchedulerOptions) {
    if (!(Number.isInteger(options.concurrency) && options.concurrency >= 1))
      throw new RangeError(`concurrency must be a whole number ≥ 1, not ${options.concurrency}`);
  }

  /**
   * A 2xx response of `url`, its slot given back when the body closes (read to its end, or destroyed). A
   * caller that opens a body must read or destroy it.
   */
  async open(url: URL, options: OpenOptions = {}): Promise<OpenResponse> {
    const signal = options.signal ?? this.options.signal;
    await this.acquire(options.priority ?? 'next', signal);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release();
    };
    try {
      const response = await this.tries(url, options.headers ?? REQUEST_HEADERS, signal);
      if (response.body.closed || response.body.destroyed) release();
      else response.body.once('close', release);
      return response;
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * A try of `url` failed where the scheduler could not see it (its body broke after the headers): counted
   * with its others. True when the run may try it again: retries + 1 tries in all, whatever starts over;
   * never for a request whose tries ran out here.
   */
  failedTry(url: URL): boolean {
    return this.failed(url) <= this.options.retry.retries;
  }

  private failed(url: URL): number {
    const failures = (this.failures.get(url.href) ?? 0) + 1;
    this.failures.set(url.href, failures);
    return failures;
  }

  /** An output started over after its body broke (a file can be rewritten whole): a retry of the run too. */
  retried(info: RetryInfo): void {
    this.counts.retries++;
    this.options.onRetry?.(info);
  }

  private async tries(
    url: URL,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<OpenResponse> {
    const { dispatcher, retry, limiter } = this.options;
    const secrets = this.options.secrets ?? [];
    for (let sent = 1; ; sent++) {
      try {
        await limiter?.acquire(signal);
      } catch (error) {
        throw networkError(error, url, secrets);
      }
      this.counts.sent++;
      if (sent > 1) this.counts.retries++;
      const outcome = await attemptGet(url, dispatcher, { headers, secrets, ...(signal ? { signal } : {}) });
      if (outcome.ok) {
        limiter?.recover();
        return outcome.response;
      }
      if (outcome.slowDown) limiter?.slowDown(retryAfterMs(outcome.retryAfter, Date.now()));
      // counted for the run: an output started over after a broken body spends from the same tries
      const attempt = this.failed(url);
      if (attempt > retry.retries) throw outcome.failure(attempt);
      const delayMs = retryDelayMs(
        attempt,
        retry,
        outcome.retryAfter,
        Date.now(),
        this.options.random ?? Math.random,
      );
      this.options.onRetry?.({
        url: redactUrl(url),
        attempt,
        delayMs,
        reason: redactText(outcome.reason, secrets),
      });
      try {
        await sleep(delayMs, undefined, signal ? { signal } : {});
      } catch (error) {
        throw networkError(error, url, secrets);
      }
    }
  }

  /** Resolves when a slot is this request's; rejects when `signal` aborts first. */
  private acquire(priority: 'next' | 'ahead', signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(interruptedError(signal.reason));
    if (this.inFlight < this.options.concurrency) {
      this.take();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const queue = this.queues[priority];
      const onAbort = () => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(interruptedError(signal?.reason));
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.take();
          resolve();
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private take(): void {
    this.inFlight++;
    this.counts.peakInFlight = Math.max(this.counts.peakInFlight, this.inFlight);
  }

  private release(): void {
    this.inFlight--;
    const next = this.queues.next.shift() ?? this.queues.ahead.shift();
    next?.grant();
  }
}
