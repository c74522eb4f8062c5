import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { expectPromtoolAccepts, samplesOf } from '../helpers/promtool.js';
import { tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const NOW = new Date('2025-03-14T21:00:00Z');

/** A client of the emulator with a fixed clock and its notes collected. */
function clientOf(emu: { options: { username: string; password: string }; urls: { historical: string } }) {
  const notes: string[] = [];
  const client = createClient(
    { username: emu.options.username, password: emu.options.password, historicalUrl: emu.urls.historical },
    { now: () => NOW, retries: 0, listeners: { onNote: (m) => notes.push(m) } },
  );
  return { client, notes };
}

const read = (path: string) => {
  const text = readFileSync(path, 'utf8');
  expectPromtoolAccepts(text);
  return samplesOf(text);
};

describe('the library writes the metrics file it is given', () => {
  it('download({ metrics }): 0 on success; a failure is 1, keeps the last success, and still rejects', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const { client, notes } = clientOf(emu);
      const file = join(dir, 'eod.prom');
      const query = client.eod({ symbols: 'AAPL', start: '2025-03-10', end: '2025-03-14' });
      try {
        await query.download(join(dir, 'a.csv'), { metrics: { file, job: 'nightly' } });
        const l = '{command="eod",mdget_job="nightly"}';
        const ok = read(file);
        expect(ok.get(`mdget_last_run_exit_code${l}`)).toBe(0);
        expect(ok.get(`mdget_last_success_timestamp_seconds${l}`)).toBe(1741986000);
        expect(ok.get(`mdget_rows_written_total${l}`)).toBe(4);

        emu.options.faults = [{ kind: 'status', status: 500 }];
        await expect(
          query.download(join(dir, 'a.csv'), { force: true, metrics: { file, job: 'nightly' } }),
        ).rejects.toMatchObject({ code: 'MDGET_HTTP' });
        const failed = read(file);
        expect(failed.get(`mdget_last_run_exit_code${l}`)).toBe(1);
        expect(failed.get(`mdget_last_success_timestamp_seconds${l}`)).toBe(1741986000);
        expect(failed.get(`mdget_failures_total${l}`)).toBe(1);

        // a file it cannot write is a note, never a failure of the download
        emu.options.faults = [];
        await query.download(join(dir, 'a.csv'), { force: true, metrics: { file: join(dir, 'no/m.prom') } });
        expect(notes).toEqual([
          `warning: cannot write metrics file ${join(dir, 'no/m.prom')}: no such file or directory`,
        ]);
      } finally {
        await client.close();
      }
    });
  });

  it('sync(file, { metrics }): the dataset file is the job, with the per-series gauges', async () => {
    await withEmulator({ now: NOW }, async (emu) => {
      const dir = tempDir();
      const dataset = join(dir, 'mdget.toml');
      writeFileSync(
        dataset,
        'root = "data"\n\n[[series]]\nname = "daily"\nkind = "eod"\nsymbols = ["AAPL"]\nstart = "2025-03-03"\nend = "2025-03-08"\npath = "eod/{symbol}.csv"\n',
      );
      const { client } = clientOf(emu);
      try {
        await client.sync(dataset, { metrics: { file: join(dir, 'sync.prom') } });
      } finally {
        await client.close();
      }
      const m = read(join(dir, 'sync.prom'));
      const l = `command="sync",mdget_job="${dataset}"`;
      expect(m.get(`mdget_last_run_exit_code{${l}}`)).toBe(0);
      expect(m.get(`mdget_series_files{${l},series="daily",state="complete"}`)).toBe(1);
      expect(m.get(`mdget_series_newest_complete_timestamp_seconds{${l},series="daily"}`)).toBe(
        Date.parse('2025-03-07') / 1000,
      );
    });
  });
});
