import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A file's name says what it holds, by one rule for -o, templates, a dataset's path and download():
// without a format the name decides; a format the name contradicts is refused before any request.
const TICKS = ['ticks', 'AAPL', '--start', '2025-03-13', '-q'];
const firstLine = (path: string): string => readFileSync(path, 'utf8').split('\n')[0] ?? '';

describe('the format a name asks for', () => {
  it('-o and templates: the extension decides; one that contradicts --format is exit 2, nothing sent', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const run = (args: string[]) => runMain([...TICKS, ...args], { env: emu.env, cwd: dir });
      expect((await run(['-o', 'x.ndjson'])).code).toBe(0);
      expect(firstLine(join(dir, 'x.ndjson'))).toMatch(/^\{"symbol":"AAPL","time":/);
      expect((await run(['-o', 'x.json'])).code).toBe(0);
      expect(firstLine(join(dir, 'x.json'))).toMatch(/^\[/);
      expect((await run(['-o', 't-{symbol}.jsonl'])).code).toBe(0);
      expect(firstLine(join(dir, 't-AAPL.jsonl'))).toMatch(/^\{"symbol":"AAPL"/);
      // raw is the service's text: a .txt name asks for it, and it may go under a .csv name
      expect((await run(['-o', 'x.txt'])).code).toBe(0);
      expect((await run(['-o', 'raw.csv', '--format', 'raw'])).code).toBe(0);
      expect(readFileSync(join(dir, 'x.txt'))).toEqual(readFileSync(join(dir, 'raw.csv')));
      // no known extension: the command's default, csv
      expect((await run(['-o', 'x.dat'])).code).toBe(0);
      expect(firstLine(join(dir, 'x.dat'))).toMatch(/^symbol,time,/);
      const sent = emu.requests.length;
      const refused = await Promise.all(
        [
          ['-o', 'y.ndjson', '--format', 'csv'],
          ['-o', 'y.csv.gz', '--format', 'json'],
          ['-o', 'y-{symbol}.json', '--format', 'ndjson'],
        ].map(run),
      );
      expect(refused.map((r) => [r.code, r.stderr])).toEqual([
        [2, 'mdget: -o y.ndjson names an ndjson file: drop --format csv, or rename it\n'],
        [2, 'mdget: -o y.csv.gz names a csv file: drop --format json, or rename it\n'],
        [2, 'mdget: -o y-{symbol}.json names a json file: drop --format ndjson, or rename it\n'],
      ]);
      expect(emu.requests.length).toBe(sent);
      expect(existsSync(join(dir, 'y.ndjson'))).toBe(false);
    });
  });

  it("the library's download(): the same rule, naming its options", async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const { createClient } = await import('../../src/index.js');
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      try {
        const query = client.ticks({ symbols: 'AAPL', start: '2025-03-13' });
        await query.download(join(dir, 'x.ndjson'));
        expect(firstLine(join(dir, 'x.ndjson'))).toMatch(/^\{"symbol":"AAPL","time":/);
        const sent = emu.requests.length;
        await expect(query.download(join(dir, 'y.ndjson'), { format: 'csv' })).rejects.toMatchObject({
          code: 'MDGET_USAGE',
          message: `output ${join(dir, 'y.ndjson')} names an ndjson file: drop format csv, or rename it`,
        });
        expect(emu.requests.length).toBe(sent);
      } finally {
        await client.close();
      }
    });
  });

  it("a dataset's path: the same table (.jsonl is ndjson)", async () => {
    await withEmulator({ now: new Date('2025-03-14T12:00:00Z') }, async (emu) => {
      const dir = tempDir();
      writeFileSync(
        join(dir, 'mdget.toml'),
        `[[series]]\nname = "a"\nkind = "ticks"\nsymbols = ["AAPL"]\nstart = "2025-03-13"\nend = "2025-03-14"\npath = "t/{symbol}-{date}.jsonl"\n`,
      );
      const run = await runMain(['sync', '-q'], { env: emu.env, cwd: dir });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(firstLine(join(dir, 't/AAPL-2025-03-13.jsonl'))).toMatch(/^\{"symbol":"AAPL","time":/);
    });
  });
});
