import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dataFilesIn } from '../helpers/cli-env.js';
import { nodePath, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const run = promisify(execFile);
const LIBRARY_DOC = readFileSync(new URL('../../docs/library.md', import.meta.url), 'utf8');
const LIBRARY = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** The example of docs/library.md, run as written against the emulator. */
describe('the library example of docs/library.md', () => {
  it('streams records, downloads a template, and closes', async () => {
    const example = /<!-- library:example -->\n```js\n([\s\S]*?)```/.exec(LIBRARY_DOC)?.[1];
    expect(example).toBeDefined();
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const file = join(dir, 'example.mjs');
      writeFileSync(file, example!.replace("from 'mdget'", `from '${LIBRARY}'`));
      const { stdout, stderr } = await run(process.execPath, [file], {
        cwd: dir,
        env: { PATH: nodePath(), ...emu.env },
      });
      expect(stderr).toBe('');
      const lines = stdout.trim().split('\n');
      expect(lines.slice(0, 3)).toEqual([
        expect.stringMatching(/^AAPL 2025-03-14 09:30 [\d.]+$/),
        expect.stringMatching(/^AAPL 2025-03-14 09:31 /),
        expect.stringMatching(/^AAPL 2025-03-14 09:32 /),
      ]);
      expect(lines.slice(3)).toEqual([
        'wrote ticks/ESM25-2025-03-13.csv',
        'wrote ticks/NQM25-2025-03-13.csv',
      ]);
      expect(dataFilesIn(join(dir, 'ticks')).sort()).toEqual([
        'ESM25-2025-03-13.csv',
        'NQM25-2025-03-13.csv',
      ]);
    });
  });

  it('errors are MdgetError with a code, the HTTP status and the redacted URL', async () => {
    await withEmulator({ faults: [{ kind: 'status', status: 404 }] }, async (emu) => {
      const { createClient } = await import('../../src/index.js');
      const client = createClient({
        username: 'demo',
        password: 'demo',
        historicalUrl: emu.urls.historical,
      });
      try {
        await expect(
          client.eod({ symbols: 'AAPL' }).download(join(tempDir(), 'x.csv')),
        ).rejects.toMatchObject({
          name: 'MdgetError',
          code: 'MDGET_SERVICE',
          status: 404,
          url: expect.stringContaining('password=***'),
        });
        const records = [];
        await expect(async () => {
          for await (const record of client.eod({ symbols: 'AAPL', start: new Date('2025-03-10T00:00:00Z') }))
            records.push(record);
        }).rejects.toMatchObject({ code: 'MDGET_SERVICE', status: 404 });
      } finally {
        await client.close();
      }
    });
  });

  it('records follow the query: trend rows only with trend, only the columns it picks', async () => {
    await withEmulator({}, async (emu) => {
      const { createClient } = await import('../../src/index.js');
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      const day = { symbols: 'ESM25', start: '2025-03-13', end: '2025-03-13T18:00' } as const;
      const keysOf = async (records: AsyncIterable<object>) => {
        const keys = new Set<string>();
        for await (const record of records) keys.add(Object.keys(record).join(','));
        return [...keys];
      };
      try {
        expect(await keysOf(client.ticks(day))).toEqual(['symbol,time,trading_day,session_code,price,size']);
        expect(await keysOf(client.ticks({ ...day, trend: true }))).toEqual([
          'symbol,time,trading_day,session_code,support,resistance',
        ]);
        const picked = client.ticks({ ...day, columns: ['time', 'price'] });
        const rows: { time: string; price: number | null }[] = [];
        for await (const row of picked) rows.push(row);
        expect(rows.length).toBeGreaterThan(0);
        expect(Object.keys(rows[0] ?? {})).toEqual(['time', 'price']);
        expect(typeof rows[0]?.price).toBe('number');
      } finally {
        await client.close();
      }
    });
  });

  it('a reader that stops early stops the download; an abort signal cancels', async () => {
    await withEmulator({ ticksPerDay: 200_000 }, async (emu) => {
      const { createClient } = await import('../../src/index.js');
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      try {
        let seen = 0;
        for await (const tick of client.ticks({
          symbols: 'ESM25',
          start: new Date('2025-03-13T00:00:00Z'),
        })) {
          expect(tick).toMatchObject({ symbol: 'ESM25', session_code: 'G' });
          if (++seen === 5) break;
        }
        expect(seen).toBe(5);
        const controller = new AbortController();
        controller.abort();
        await expect(
          client
            .ticks({ symbols: 'ESM25', start: new Date('2025-03-13T00:00:00Z') })
            .download(join(tempDir(), 't.csv'), { signal: controller.signal }),
        ).rejects.toMatchObject({ code: 'MDGET_ABORTED' });
      } finally {
        await client.close();
      }
    });
  });

  it('instruments writes to a path or into a stream the caller reads, in full', async () => {
    await withEmulator({}, async (emu) => {
      const { createClient } = await import('../../src/index.js');
      const client = createClient({
        username: 'demo',
        password: 'demo',
        extrasUrl: emu.urls.extras,
        exchangesPath: emu.env.MDGET_EXCHANGES_PATH,
        instrumentsUrl: emu.urls.instruments,
      });
      try {
        const file = join(tempDir(), 'big.ndjson');
        await client.instruments({ exchange: 'BIG', to: file });
        const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
        expect(lines.length).toBeGreaterThan(1000); // far above a stream's 16 KiB buffer
        const { PassThrough } = await import('node:stream');
        const stream = new PassThrough();
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        await client.instruments({ exchange: 'BIG', to: stream });
        expect(Buffer.concat(chunks).toString('utf8').trimEnd().split('\n')).toEqual(lines);
      } finally {
        await client.close();
      }
    });
  });
});
