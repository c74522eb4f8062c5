import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { Fault } from '../../src/emulator/index.js';
import { onFakeClock } from '../helpers/fake-clock.js';
import { withEmulator } from '../helpers/with-emulator.js';
import { crlfLines, get, withCredentials } from './http.js';

const QUERY = { symbol: 'AAPL', start: '20250314' };

describe('emulator: fault injection', () => {
  const ticksUrl = (emu: Parameters<Parameters<typeof withEmulator>[1]>[0], page = 'queryticks.ashx') =>
    `${emu.urls.historical}/${page}?${withCredentials(emu, QUERY)}`;

  it('status: any HTTP status with Retry-After, used up after `times`', async () => {
    await withEmulator(
      {
        faults: [
          { kind: 'status', status: 503, retryAfter: 2, times: 1 },
          { kind: 'status', status: 404, path: 'queryeod.ashx' },
        ],
      },
      async (emu) => {
        const failed = await get(ticksUrl(emu));
        expect([failed.status, failed.headers['retry-after'], failed.body.toString()]).toEqual([
          503,
          '2',
          '503 Service Unavailable\r\n',
        ]);
        const ok = await get(ticksUrl(emu));
        expect(ok.status).toBe(200);
        expect(crlfLines(ok.body).length).toBeGreaterThan(100);
        const eod = await get(ticksUrl(emu, 'queryeod.ashx'));
        expect(eod.status).toBe(404);
        expect((await get(ticksUrl(emu, 'queryeod.ashx'))).status).toBe(404);
      },
    );
  });

  it('status with a body, added while running (options are live)', async () => {
    await withEmulator({}, async (emu) => {
      expect((await get(ticksUrl(emu))).status).toBe(200);
      emu.options.faults.push({ kind: 'status', status: 401, body: 'Error: invalid username or password' });
      const refused = await get(ticksUrl(emu));
      expect([refused.status, refused.body.toString()]).toEqual([401, 'Error: invalid username or password']);
    });
  });

  it('inBandError and errorAfterData', async () => {
    await withEmulator(
      {
        faults: [
          { kind: 'inBandError', message: 'Error: service busy', times: 1 },
          { kind: 'errorAfterData', message: 'Error: internal failure' },
        ],
      },
      async (emu) => {
        const inBand = await get(ticksUrl(emu));
        expect([inBand.status, inBand.body.toString()]).toEqual([200, 'Error: service busy\r\n']);
        const after = crlfLines((await get(ticksUrl(emu))).body);
        expect(after).toHaveLength(4);
        expect(after.slice(0, 3).every((line) => line.startsWith('2025-03-14 09:30:'))).toBe(true);
        expect(after[3]).toBe('Error: internal failure');
      },
    );
  });

  it('html: a 200 maintenance page', async () => {
    await withEmulator({ faults: [{ kind: 'html' }] }, async (emu) => {
      const page = await get(ticksUrl(emu));
      expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      expect(page.body.toString()).toMatch(/^<!DOCTYPE html>/);
    });
  });

  it('truncate: Content-Length of the whole body, socket destroyed after N bytes', async () => {
    await withEmulator({ faults: [{ kind: 'truncate', afterBytes: 200 }] }, async (emu) => {
      const cut = await get(ticksUrl(emu));
      expect(Number(cut.headers['content-length'])).toBeGreaterThan(10_000);
      expect(cut.body.length).toBe(200);
      expect(cut.error).toBeDefined();
    });
  });

  it('reset: chunked body, socket destroyed after N bytes', async () => {
    await withEmulator({ faults: [{ kind: 'reset', afterBytes: 300 }] }, async (emu) => {
      const cut = await get(ticksUrl(emu));
      expect(cut.headers['transfer-encoding']).toBe('chunked');
      expect(cut.body.length).toBe(300);
      expect(cut.error).toBeDefined();
    });
  });

  it('hangUp: the connection closed before any answer, and recorded', async () => {
    await withEmulator({ faults: [{ kind: 'hangUp' }] }, async (emu) => {
      await expect(get(ticksUrl(emu), {}, false)).rejects.toThrow(/socket hang up|ECONNRESET/);
      expect(emu.requests.filter((r) => r.path.endsWith('queryticks.ashx'))).toHaveLength(1);
    });
  });

  it('partialLine: a clean chunked end in the middle of a record', async () => {
    await withEmulator({ faults: [{ kind: 'partialLine' }] }, async (emu) => {
      const partial = await get(ticksUrl(emu));
      expect([partial.status, partial.error, partial.headers['transfer-encoding']]).toEqual([
        200,
        undefined,
        'chunked',
      ]);
      const text = partial.body.toString();
      expect(text.endsWith('\n')).toBe(false);
      const lines = text.split('\r\n');
      expect(lines.slice(0, -1).every((line) => line.split(',').length === 5)).toBe(true);
      expect(lines.at(-1)?.split(',').length).toBeLessThan(5);
    });
  });

  it('slow: waits before the headers, then answers normally', async () => {
    // a fake clock the test moves: no answer before 150 ms of it, the whole body at 150
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await withEmulator({ faults: [{ kind: 'slow', delayMs: 150, times: 1 }] }, async (emu) => {
        const slow = await onFakeClock(emu, ticksUrl(emu), 150);
        expect([slow.atOnce, slow.justBefore, slow.response.status]).toEqual([false, false, 200]);
        expect(crlfLines(slow.response.body).length).toBeGreaterThan(100);
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('redirect: a 302 with the Location', async () => {
    await withEmulator(
      { faults: [{ kind: 'redirect', location: 'http://127.0.0.1:9/elsewhere' }] },
      async (emu) => {
        const moved = await get(ticksUrl(emu));
        expect([moved.status, moved.headers.location]).toEqual([302, 'http://127.0.0.1:9/elsewhere']);
      },
    );
  });

  it('badGzip: a gzip stream without its trailer', async () => {
    await withEmulator({ faults: [{ kind: 'badGzip' }] }, async (emu) => {
      const broken = await get(ticksUrl(emu), { 'accept-encoding': 'gzip' });
      expect(broken.headers['content-encoding']).toBe('gzip');
      expect(() => gunzipSync(broken.body)).toThrow(/unexpected end/);
    });
  });

  it('applies only to the matching endpoint and records every request', async () => {
    const fault: Fault = { kind: 'status', status: 500, path: 'futuresoptions/json' };
    await withEmulator({ faults: [fault] }, async (emu) => {
      const query = withCredentials(emu, { root: 'ZC', date: '20250313' });
      expect((await get(`${emu.urls.futuresOptions}/futuresoptions?${query}`)).status).toBe(200);
      expect((await get(`${emu.urls.futuresOptions}/futuresoptions/json?${query}`)).status).toBe(500);
      expect(emu.requests.map((request) => request.path)).toEqual([
        '/fo/futuresoptions',
        '/fo/futuresoptions/json',
      ]);
    });
  });
});
