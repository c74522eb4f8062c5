import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fetchBytes } from '../helpers/cli-env.js';
import { runShell, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// The decoded body (core/http/inflate.ts), the joined socket reads, and the raw, csv and JSON output are
// cut from reused buffers that each reader or writer gives back once done (core/buffers/chunk-pool.ts). A buffer
// given back too early would show as wrong bytes where a writer is slow: a file, a pipe whose reader
// starts late, and a .gz output, each over many times the buffers' size.

const ticksUrl = (base: string) =>
  `${base}/queryticks.ashx?username=demo&password=demo&symbol=ESM25&start=20250313&end=20250314&order=asc`;

describe('output through reused buffers', () => {
  it('raw, csv and ndjson are whole in a file, a late-read pipe and a .gz output', async () => {
    await wholeEverywhere('auto', ['raw', 'csv', 'ndjson']);
  });

  it('so are raw and csv of a body sent without gzip (joined socket reads are pooled too)', async () => {
    await wholeEverywhere('never', ['raw', 'csv']);
  });

  it('days fetched ahead into spool files (one output, --concurrency 4) equal the days one by one', async () => {
    await withEmulator({ ticksPerDay: 50_000 }, async (emu) => {
      const dir = tempDir();
      const days = `"$MDGET" ticks ESM25 --start 2025-03-10 --end 2025-03-14 --max-rows 100000000 -q`;
      const run = await runShell(
        `cd "${dir}" && ${days} --concurrency 4 -o all.csv && ${days} --concurrency 4 -o 'day-{date}.csv'`,
        emu.env,
      );
      expect([run.code, run.stderr]).toEqual([0, '']);
      const one = ['10', '11', '12', '13'].map((d) =>
        readFileSync(join(dir, `day-2025-03-${d}.csv`), 'latin1').split('\n'),
      );
      const joined = [one[0]![0], ...one.flatMap((lines) => lines.slice(1, -1))].join('\n');
      const all = readFileSync(join(dir, 'all.csv'), 'latin1');
      expect(all.length).toBeGreaterThan(6_500_000);
      expect(all === `${joined}\n`).toBe(true);
    });
  });
});

async function wholeEverywhere(gzip: 'auto' | 'never', formats: string[]): Promise<void> {
  await withEmulator({ ticksPerDay: 80_000, gzip }, async (emu) => {
    const body = await fetchBytes(ticksUrl(emu.urls.historical));
    const raw = body.toString('latin1');
    const lines = raw.split('\r\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(65_000);
    const dir = tempDir();
    const download = `"$MDGET" ticks ESM25 --start 2025-03-13 --max-rows 100000000 -q`;
    for (const format of formats) {
      const run = await runShell(
        `cd "${dir}" && ${download} --format ${format} -o ${format}.file && ${download} --format ${format} | (sleep 1; cat) > ${format}.pipe && ${download} --format ${format} -o ${format}.gz`,
        emu.env,
      );
      expect([run.code, run.stderr]).toEqual([0, '']);
      const file = readFileSync(join(dir, `${format}.file`));
      expect(readFileSync(join(dir, `${format}.pipe`)).equals(file)).toBe(true);
      expect(gunzipSync(readFileSync(join(dir, `${format}.gz`))).equals(file)).toBe(true);
      const rows = file.toString('latin1').split('\n').slice(0, -1);
      if (format === 'raw') expect(file.equals(body)).toBe(true);
      else if (format === 'csv') {
        // the service's lines, each after the symbol column, under one header
        expect(rows.slice(1)).toEqual(lines.map((line) => `ESM25,${line}`));
      } else {
        expect(rows).toHaveLength(lines.length);
        expect(rows.map((row) => JSON.parse(row).price)).toEqual(
          lines.map((line) => Number(line.split(',')[3])),
        );
      }
    }
  });
}
