/**
 * The `rateLimit` switch (the service's rate limits are unknown): a sliding one-second window, not
 * per-second buckets, so a burst straddling a second boundary is still refused, as a client that
 * paces itself by `Retry-After` must expect from any server.
 */

/** Requests admitted in the last `windowMs`; refused ones are not counted (a retry can get in). */
export class SlidingWindow {
  private readonly admitted: number[] = [];

  constructor(private readonly windowMs = 1000) {}

  /** True when a request at `nowMs` makes at most `limit` in the window ending then; it is counted. */
  admit(nowMs: number, limit: number): boolean {
    while (this.admitted.length && (this.admitted[0] as number) <= nowMs - this.windowMs)
      this.admitted.shift();
    if (this.admitted.length >= limit) return false;
    this.admitted.push(nowMs);
    return true;
  }
}
