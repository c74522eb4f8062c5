import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Pacing shared by every request of a run. With `--rate n`, a token bucket of one token lets
 * requests start evenly, 1/n s apart: a bucket of n would let a burst of n plus a second's refill, 2n,
 * into one sliding second, which a server counting that way refuses. Whatever the rate, a 429 or a `Retry-After` holds every request of
 * the run for that long, not only the one refused: concurrent requests retrying on their own would hit the
 * limit again together. A refusal also halves the rate, which then creeps back up by a tenth of the rate
 * asked for with each request that succeeds.
 */
/** Waits `ms`, rejecting when `signal` aborts: the timer by default, a virtual clock's in tests. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const timerSleep: Sleep = (ms, signal) => sleep(ms, undefined, signal ? { signal } : {});

export class RateLimiter {
  private rate: number | undefined;
  private tokens: number;
  private refilledMs: number;
  private heldUntilMs = 0;

  constructor(
    private readonly target: number | undefined,
    private readonly now: () => number = () => performance.now(),
    private readonly wait: Sleep = timerSleep,
  ) {
    this.rate = target;
    this.tokens = target === undefined ? 0 : 1;
    this.refilledMs = now();
  }

  /** The rate in force, requests per second (undefined: no limit). */
  get currentRate(): number | undefined {
    return this.rate;
  }

  /** Resolves when a request may start; rejects when `signal` aborts. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.now();
      if (now < this.heldUntilMs) {
        await this.wait(this.heldUntilMs - now, signal);
        continue;
      }
      if (this.rate === undefined) return;
      this.refill(now);
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.wait(Math.ceil(((1 - this.tokens) / this.rate) * 1000), signal);
    }
  }

  /** The server refused (429) or asked for a pause (Retry-After): every request waits, the rate halves. */
  slowDown(retryAfterMs: number | undefined): void {
    const now = this.now();
    this.heldUntilMs = Math.max(this.heldUntilMs, now + (retryAfterMs ?? 1000));
    if (this.rate !== undefined) {
      this.refill(now);
      this.rate = Math.max(this.rate / 2, Math.min(1, this.target ?? 1) / 8);
      this.tokens = Math.min(this.tokens, 1);
    }
  }

  /** A request succeeded: the rate moves back toward the one asked for. */
  recover(): void {
    if (this.rate !== undefined && this.target !== undefined && this.rate < this.target) {
      this.rate = Math.min(this.target, this.rate + this.target / 10);
    }
  }

  private refill(now: number): void {
    if (this.rate === undefined) return;
    this.tokens = Math.min(1, this.tokens + ((now - this.refilledMs) / 1000) * this.rate);
    this.refilledMs = now;
  }
}
