import { Agent } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SlidingWindow } from '../../src/emulator/rate-limit.js';
import { onFakeClock } from '../helpers/fake-clock.js';
import { withEmulator } from '../helpers/with-emulator.js';
import { get, withCredentials } from './http.js';

const EOD_QUERY = { symbol: 'AAPL', start: '20250310', end: '20250314' };

describe('emulator: connections, latency and rate limit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('numbers the TCP connection of every request, so keep-alive reuse is observable', async () => {
    await withEmulator({}, async (emu) => {
      const url = `${emu.urls.historical}/queryeod.ashx?${withCredentials(emu, EOD_QUERY)}`;
      const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; i < 3; i++) expect((await get(url, {}, keepAlive)).status).toBe(200);
      } finally {
        keepAlive.destroy();
      }
      await get(url, {}, false);
      await get(url, {}, false);
      const numbers = emu.requests.map((request) => request.connection);
      expect(numbers).toHaveLength(5);
      expect(numbers.slice(0, 3)).toEqual([numbers[0], numbers[0], numbers[0]]);
      expect(new Set(numbers).size).toBe(3);
      expect(numbers.every((n) => Number.isInteger(n) && n >= 1)).toBe(true);
    });
  });

  it('waits `latency` ms before the headers of every request, data, 404 and 429 alike', async () => {
    // the emulator's timers and clock are fake: the test moves them, so a busy machine changes nothing
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    await withEmulator({ latency: 150, rateLimit: 1 }, async (emu) => {
      const data = await onFakeClock(
        emu,
        `${emu.urls.historical}/queryeod.ashx?${withCredentials(emu, EOD_QUERY)}`,
        150,
      );
      const limited = await onFakeClock(emu, `${emu.urls.historical}/queryeod.ashx`, 150);
      expect([data.response.status, limited.response.status]).toEqual([200, 429]);
      expect(data.response.body.toString().split('\r\n')).toHaveLength(6);
      // the rate window is one second of the same clock: a second later, a 404 is delayed alike
      vi.advanceTimersByTime(1000);
      const missing = await onFakeClock(emu, `${emu.url}/nowhere`, 150);
      expect(missing.response.status).toBe(404);
      for (const answer of [data, limited, missing])
        expect([answer.atOnce, answer.justBefore]).toEqual([false, false]);
    });
    await withEmulator({}, async (emu) => {
      const answer = await onFakeClock(emu, `${emu.url}/nowhere`, 0);
      // without latency, the answer comes with the clock standing still
      expect([answer.atOnce, answer.response.status]).toEqual([true, 404]);
    });
  });

  it('counts rateLimit over a sliding one-second window, not per calendar second', () => {
    const window = new SlidingWindow();
    const admit = (atMs: number, count: number) => Array.from({ length: count }, () => window.admit(atMs, 4));
    // A at 400 ms: two; B at 1000 ms (another calendar second): two more fill the window, a fifth is refused
    expect(admit(400, 2)).toEqual([true, true]);
    expect(admit(1000, 3)).toEqual([true, true, false]);
    // C at 1450 ms: A has left the window, B has not: two places, whatever second the clock shows
    expect(admit(1450, 3)).toEqual([true, true, false]);
    expect(admit(1999, 1)).toEqual([false]);
    // D at 2000 ms: B has left too; the refused requests never counted
    expect(admit(2000, 3)).toEqual([true, true, false]);
  });

  it('refuses past rateLimit with 429, Retry-After and a plain body, on the emulator clock', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    await withEmulator({ rateLimit: 2, retryAfter: 3 }, async (emu) => {
      const url = `${emu.urls.historical}/queryeod.ashx?${withCredentials(emu, EOD_QUERY)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(url, {}, false)).status);
      const refused = await get(url, {}, false);
      expect(statuses).toEqual([200, 200, 429]);
      expect([refused.status, refused.headers['retry-after'], refused.body.toString()]).toEqual([
        429,
        '3',
        'Too Many Requests\r\n',
      ]);
      // a second later on the same clock, the window is empty again
      vi.advanceTimersByTime(1000);
      expect((await get(url, {}, false)).status).toBe(200);
    });
  });
});
