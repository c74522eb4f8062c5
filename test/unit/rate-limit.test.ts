import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/http/rate-limit.js';

const timed = async (limiter: RateLimiter, count: number) => {
  const started = performance.now();
  for (let i = 0; i < count; i++) await limiter.acquire();
  return performance.now() - started;
};

describe('RateLimiter', () => {
  it('starts requests evenly, n per second', async () => {
    const limiter = new RateLimiter(50);
    expect(await timed(limiter, 1)).toBeLessThan(10);
    const paced = await timed(limiter, 25);
    expect(paced).toBeGreaterThan(450);
    expect(paced).toBeLessThan(900);
  });

  it('a refusal holds every request for Retry-After and halves the rate; successes bring it back', async () => {
    const limiter = new RateLimiter(40);
    await timed(limiter, 4);
    limiter.slowDown(300);
    expect(limiter.currentRate).toBe(20);
    expect(await timed(limiter, 1)).toBeGreaterThanOrEqual(290);
    for (let i = 0; i < 5; i++) limiter.recover();
    expect(limiter.currentRate).toBe(40);
  });

  it('without a rate: no pacing, but Retry-After still holds everyone', async () => {
    const limiter = new RateLimiter(undefined);
    expect(await timed(limiter, 1000)).toBeLessThan(100);
    limiter.slowDown(200);
    expect(await timed(limiter, 1)).toBeGreaterThanOrEqual(190);
    expect(limiter.currentRate).toBeUndefined();
  });
});
