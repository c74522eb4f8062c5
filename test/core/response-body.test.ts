import { createGunzip } from 'node:zlib';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { dispatchGet } from '../../src/core/http/dispatch.js';
import { withEmulator } from '../helpers/with-emulator.js';

const ticks = (base: string) =>
  new URL(`${base}/queryticks.ashx?username=demo&password=demo&symbol=ESM25&start=20250313&end=20250314`);

async function bytesOf(stream: AsyncIterable<Buffer>, slow = false): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk);
    if (slow) await new Promise((resolve) => setImmediate(resolve));
  }
  return Buffer.concat(chunks);
}

describe('dispatchGet: a body read with pauses and resumes', () => {
  it('a slow reader of a gzip body in small chunks gets every byte (paused and resumed many times)', async () => {
    await withEmulator({ ticksPerDay: 400_000 }, async (emu) => {
      const agent = new Agent();
      try {
        const plain = await dispatchGet(ticks(emu.urls.historical), agent, { headers: {} });
        const expected = await bytesOf(plain.body);
        const gzip = await dispatchGet(ticks(emu.urls.historical), agent, {
          headers: { 'accept-encoding': 'gzip' },
        });
        expect([gzip.statusCode, gzip.headers['content-encoding']]).toEqual([200, 'gzip']);
        const decoded = await bytesOf(gzip.body.pipe(createGunzip()), true);
        expect(decoded.length).toBeGreaterThan(10_000_000);
        expect(decoded.equals(expected)).toBe(true);
      } finally {
        await agent.close();
      }
    });
  });

  it('an abort stops the body; destroying it early frees the connection for the next request', async () => {
    await withEmulator({ ticksPerDay: 400_000 }, async (emu) => {
      const agent = new Agent({ connections: 1 });
      try {
        const controller = new AbortController();
        const response = await dispatchGet(ticks(emu.urls.historical), agent, {
          headers: {},
          signal: controller.signal,
        });
        const reading = bytesOf(response.body, true);
        setTimeout(() => controller.abort(new Error('stop')), 20);
        await expect(reading).rejects.toThrow();
        const early = await dispatchGet(ticks(emu.urls.historical), agent, { headers: {} });
        early.body.destroy();
        const next = await dispatchGet(
          new URL(
            `${emu.urls.historical}/queryeod.ashx?username=demo&password=demo&symbol=AAPL&start=20250310&end=20250312`,
          ),
          agent,
          { headers: {} },
        );
        expect((await bytesOf(next.body)).toString()).toMatch(/^AAPL,2025-03-10,/);
      } finally {
        await agent.close();
      }
    });
  });
});
