import { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { withEmulator } from '../helpers/with-emulator.js';
import { get, withCredentials } from './http.js';

const EOD_QUERY = { symbol: 'AAPL', start: '20250310', end: '20250314' };

describe('emulator: connections, latency and rate limit', () => {
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
    await withEmulator({ latency: 150, rateLimit: 1 }, async (emu) => {
      const timed = async (url: string) => {
        const started = performance.now();
        const response = await get(url, {}, false);
        return { status: response.status, ms: performance.now() - started, body: response.body };
      };
      const data = await timed(`${emu.urls.historical}/queryeod.ashx?${withCredentials(emu, EOD_QUERY)}`);
      const limited = await timed(`${emu.urls.historical}/queryeod.ashx`);
      expect([data.status, limited.status]).toEqual([200, 429]);
      expect(data.body.toString().split('\r\n')).toHaveLength(6);
      expect(data.ms).toBeGreaterThanOrEqual(140);
      expect(limited.ms).toBeGreaterThanOrEqual(140);
      await sleep(1000);
      const missing = await timed(`${emu.url}/nowhere`);
      expect(missing.status).toBe(404);
      expect(missing.ms).toBeGreaterThanOrEqual(140);
    });
    await withEmulator({}, async (emu) => {
      const started = performance.now();
      await get(`${emu.url}/nowhere`, {}, false);
      expect(performance.now() - started).toBeLessThan(140);
    });
  });

  it('counts rateLimit over a sliding one-second window, not per calendar second', async () => {
    await withEmulator({ rateLimit: 4, retryAfter: 3 }, async (emu) => {
      const url = `${emu.urls.historical}/queryeod.ashx?${withCredentials(emu, EOD_QUERY)}`;
      const statuses = async (count: number) => {
        const seen: number[] = [];
        for (let i = 0; i < count; i++) seen.push((await get(url, {}, false)).status);
        return seen;
      };
      // A: two requests; B, 600 ms later: two more fill the window, the fifth is refused
      expect(await statuses(2)).toEqual([200, 200]);
      const afterA = performance.now();
      await sleep(600);
      const beforeB = performance.now();
      expect(await statuses(3)).toEqual([200, 200, 429]);
      const refused = await get(url, {}, false);
      expect([refused.status, refused.headers['retry-after'], refused.body.toString()]).toEqual([
        429,
        '3',
        'Too Many Requests\r\n',
      ]);
      // C: A has left the window, B has not: two places, whatever second the clock shows
      await sleep(Math.max(0, afterA + 1050 - performance.now()));
      expect(await statuses(3)).toEqual([200, 200, 429]);
      expect(performance.now() - beforeB).toBeLessThan(1000);
      // D: B has left too; the refused requests never counted
      await sleep(Math.max(0, beforeB + 1100 - performance.now()));
      expect(await statuses(2)).toEqual([200, 200]);
    });
  });
});
