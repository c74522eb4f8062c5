import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { withEmulator } from '../helpers/with-emulator.js';
import { get, withCredentials } from './http.js';

describe('cacheBodies (benchmarks)', () => {
  it('replays a gzip body as it was streamed: same bytes, chunked, decoding to the plain body', async () => {
    await withEmulator({ cacheBodies: true, ticksPerDay: 200_000 }, async (emu) => {
      const url = `${emu.urls.historical}/queryticks.ashx?${withCredentials(emu, { symbol: 'ESM25', start: '20250313' })}`;
      const first = await get(url, { 'accept-encoding': 'gzip' });
      const again = await get(url, { 'accept-encoding': 'gzip' });
      const plain = await get(url);
      expect([first.headers['content-encoding'], again.headers['content-encoding']]).toEqual([
        'gzip',
        'gzip',
      ]);
      expect(again.headers['transfer-encoding']).toBe('chunked');
      expect(again.body.equals(first.body)).toBe(true);
      expect(gunzipSync(again.body).equals(plain.body)).toBe(true);
      expect(plain.body.length).toBeGreaterThan(5_000_000);
    });
  });
});
