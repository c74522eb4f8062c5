import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// The library meets the CLI's rules in its own words: its config keys, its option names, its listeners.
const { createClient } = await import('../../src/index.js');

describe('the library, as the CLI', () => {
  it("exchanges() takes the CLI's default path; a missing setting names the client's config key", async () => {
    await withEmulator({}, async (emu) => {
      const client = createClient({ extrasUrl: emu.urls.extras });
      try {
        const exchanges = await client.exchanges();
        expect(exchanges.length).toBeGreaterThan(0);
        expect(emu.requests.map((r) => r.path)).toEqual(['/extras/exchanges.php']);
      } finally {
        await client.close();
      }
      const bare = createClient({ username: 'demo', password: 'demo' });
      try {
        await expect(bare.exchanges()).rejects.toMatchObject({
          code: 'MDGET_CONFIG',
          message: 'missing config.extrasUrl: give it to createClient (`mdget emulator` prints a local one)',
        });
        // a plan needs no configuration (its URLs are built when sent); a download does
        const ticks = bare.ticks({ symbols: 'AAPL', start: '2025-03-13' });
        expect(ticks.plan()).toHaveLength(1);
        await expect(ticks.download(new PassThrough())).rejects.toMatchObject({
          code: 'MDGET_CONFIG',
          message: expect.stringContaining('missing config.historicalUrl: give it to createClient'),
        });
        const withCredentials = createClient({
          username: 'a',
          password: 'b',
          historicalUrl: 'http://user:pw@127.0.0.1/',
        });
        await expect(
          withCredentials.ticks({ symbols: 'AAPL', start: '2025-03-13' }).download(new PassThrough()),
        ).rejects.toMatchObject({
          code: 'MDGET_CONFIG',
          message: expect.stringContaining(
            'config.historicalUrl must not carry credentials: use config.username and config.password',
          ),
        });
        await withCredentials.close();
      } finally {
        await bare.close();
      }
      expect(emu.requests).toHaveLength(1);
    });
  });

  it('an unknown key is a usage error naming it, in a query, in download() and in createClient', async () => {
    await withEmulator({}, async (emu) => {
      const config = { username: 'demo', password: 'demo', historicalUrl: emu.urls.historical };
      const client = createClient(config);
      const typo = (value: object) => value as never;
      try {
        const query = client.minutes(typo({ symbols: 'AAPL', start: '2025-03-13', intervall: 5 }));
        expect(() => query.plan()).toThrow(
          expect.objectContaining({
            code: 'MDGET_USAGE',
            message: 'intervall: not an option of a minutes query (did you mean interval?)',
          }),
        );
        await expect(query.download(join(tempDir(), 'm.csv'))).rejects.toMatchObject({ code: 'MDGET_USAGE' });
        // a bad value names its option in the message and in `option`
        expect(() => client.minutes({ symbols: 'AAPL', start: '2025-03-13', interval: 0 }).plan()).toThrow(
          expect.objectContaining({ code: 'MDGET_USAGE', option: 'interval' }),
        );
        const good = client.ticks({ symbols: 'AAPL', start: '2025-03-13' });
        await expect(good.download(join(tempDir(), 't.csv'), typo({ concurency: 2 }))).rejects.toMatchObject({
          code: 'MDGET_USAGE',
          message: 'concurency: not an option of download() (did you mean concurrency?)',
        });
        expect(() => createClient(config, typo({ retrys: 2 }))).toThrow(
          'retrys: not an option of createClient (did you mean retries?)',
        );
        expect(() => createClient(config, typo({ speed: 2 }))).toThrow(
          /^speed: not an option of createClient; it takes retries, timeoutMs, rate, proxy, maxRows/,
        );
        expect(emu.requests).toEqual([]);
      } finally {
        await client.close();
      }
    });
  });

  it("a query's records stop at its signal's abort, with what the stream already held", async () => {
    await withEmulator({ ticksPerDay: 200_000, gzip: 'auto' }, async (emu) => {
      const client = createClient(
        { username: 'demo', password: 'demo', historicalUrl: emu.urls.historical },
        { maxRows: 100_000_000 },
      );
      try {
        const controller = new AbortController();
        let after = 0;
        const read = (async () => {
          for await (const _ of client
            .ticks({ symbols: 'ESM25', start: '2025-03-13' })
            .records(controller.signal)) {
            if (controller.signal.aborted) after++;
            else controller.abort();
          }
        })();
        await expect(read).rejects.toMatchObject({ code: 'MDGET_ABORTED' });
        expect(after).toBe(0);
      } finally {
        await client.close();
      }
    });
  });

  it("the job's warnings reach the caller's onNote", async () => {
    await withEmulator({}, async (emu) => {
      const notes: string[] = [];
      const client = createClient(
        { username: 'demo', password: 'demo', historicalUrl: emu.urls.historical },
        { listeners: { onNote: (message) => notes.push(message) } },
      );
      try {
        const file = join(tempDir(), 'all.csv');
        await client
          .ticks({ symbols: ['AAPL', 'MSFT'], start: '2025-03-13' })
          .download(file, { shard: { index: 1, count: 2 } });
        expect(notes).toEqual([
          `warning: shard 1/2: ${file} gets rows of other shares too, which their runs write under the same name; use a template with {symbol} and {date} so each share writes files of its own`,
        ]);
      } finally {
        await client.close();
      }
    });
  });
});
