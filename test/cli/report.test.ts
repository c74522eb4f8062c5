import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const schema = JSON.parse(readFileSync(new URL('../../docs/report.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ strict: true, validateFormats: false }).compile(schema);

/** The report of a run, checked against docs/report.schema.json. */
function reportOf(dir: string): Record<string, unknown> & { requests: Record<string, unknown>[] } {
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  expect(Date.parse(report.started)).toBeLessThanOrEqual(Date.parse(report.ended));
  return report;
}

describe('--report', () => {
  it('a download: the run, its totals, one entry per request with its window, end exclusive', async () => {
    await withEmulator({ rowCap: 300 }, async (emu) => {
      const dir = tempDir();
      const args = ['ticks', 'ESM25', '--start', '2025-03-13', '--end', '2025-03-15', '-o', 't-{date}.csv'];
      const run = await runMain([...args, '--report', 'report.json', '--max-rows', '300'], {
        env: emu.env,
        cwd: dir,
      });
      expect(run.code).toBe(0);
      const report = reportOf(dir);
      expect(report).toMatchObject({ command: 'ticks', exitCode: 0 });
      expect(report.arguments).toEqual([...args, '--report', 'report.json', '--max-rows', '300']);
      const planned = report.requests.filter((r) => !r.continuation);
      expect(planned.map((r) => [r.start, r.end, r.zone])).toEqual([
        ['2025-03-13', '2025-03-14', 'America/Chicago'],
        ['2025-03-14', '2025-03-15', 'America/Chicago'],
      ]);
      const totals = report.totals as Record<string, number>;
      expect(totals.requests).toBe(emu.requests.length);
      expect(totals.continuations).toBe(report.requests.length - 2);
      expect(totals.continuations).toBeGreaterThan(0);
      expect(totals.files).toBe(2);
      const rows = ['2025-03-13', '2025-03-14'].map(
        (day) =>
          readFileSync(join(dir, `t-${day}.csv`), 'utf8')
            .trim()
            .split('\n').length - 1,
      );
      expect(totals.rows).toBe(rows[0]! + rows[1]!);
    });
  });

  it('a failed run and a reference command report as well, exit status included', async () => {
    await withEmulator(
      { faults: [{ kind: 'inBandError', message: 'Error: not entitled to ZZZ' }] },
      async (emu) => {
        const dir = tempDir();
        const run = await runMain(['eod', 'ZZZ', '--report', 'report.json'], { env: emu.env, cwd: dir });
        expect(run.code).toBe(4);
        const report = reportOf(dir);
        expect(report).toMatchObject({ command: 'eod', exitCode: 4, totals: { files: 0, rows: 0 } });
        expect(report.requests[0]).toMatchObject({
          status: 'failed',
          output: '-',
          error: { code: 'MDGET_SERVICE' },
        });
      },
    );
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const run = await runMain(['exchanges', '-o', 'x.csv', '--report', 'report.json'], {
        env: emu.env,
        cwd: dir,
      });
      expect(run.code).toBe(0);
      expect(reportOf(dir)).toMatchObject({
        command: 'exchanges',
        exitCode: 0,
        totals: { requests: 1, files: 1 },
      });
    });
  });
});
