import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/http/rate-limit.js';

/**
 * A virtual clock: `sleep` moves time on at once and records each wait, so the test reads when each
 * request would start, whatever the machine's load.
 */
function virtualClock() {
  const clock = {
    ms: 0,
    waits: [] as number[],
    now: () => clock.ms,
    sleep: async (ms: number) => {
      clock.waits.push(ms);
      clock.ms += ms;
    },
  };
  return clock;
}

/** The virtual times at which `count` requests start. */
async function starts(limiter: RateLimiter, clock: { now(): number }, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await limiter.acquire();
    times.push(clock.now());
  }
  return times;
}

describe('RateLimiter', () => {
  it('starts requests evenly, n per second', async () => {
    const clock = virtualClock();
    const limiter = new RateLimiter(50, clock.now, clock.sleep);
    // the first at once, then one every 20 ms: 25 requests span 480 ms, never two in one 20 ms
    const times = await starts(limiter, clock, 25);
    expect(times).toEqual(Array.from({ length: 25 }, (_, i) => i * 20));
  });

  it('a refusal holds every request for Retry-After and halves the rate; successes bring it back', async () => {
    const clock = virtualClock();
    const limiter = new RateLimiter(40, clock.now, clock.sleep);
    await starts(limiter, clock, 4); // 0, 25, 50, 75 ms
    limiter.slowDown(300);
    expect(limiter.currentRate).toBe(20);
    // held until 375 ms; then the halved rate: one every 50 ms
    expect(await starts(limiter, clock, 3)).toEqual([375, 425, 475]);
    for (let i = 0; i < 5; i++) limiter.recover();
    expect(limiter.currentRate).toBe(40);
  });

  it('without a rate: no pacing, but Retry-After still holds everyone', async () => {
    const clock = virtualClock();
    const limiter = new RateLimiter(undefined, clock.now, clock.sleep);
    await starts(limiter, clock, 1000);
    expect([clock.ms, clock.waits]).toEqual([0, []]);
    limiter.slowDown(200);
    expect(await starts(limiter, clock, 2)).toEqual([200, 200]);
    expect(limiter.currentRate).toBeUndefined();
  });

  it('a wait ends when the signal aborts (the real timer)', async () => {
    const limiter = new RateLimiter(undefined);
    limiter.slowDown(60_000);
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});
