import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { CANARY_ACCOUNT, dataFilesIn, expectNoCanary, NO_PROBES, requestsTo } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** Every row the service holds, or a clear failure (docs/completeness.md). */

interface Report {
  requests: { url: string; status: string; rows: number; continuation?: { reason: string; from: string } }[];
}

/** Runs mdget against a fresh emulator with `options`; returns stdout, the report and the requests sent. */
async function pull(options: Partial<EmulatorOptions>, args: string[], env: Record<string, string> = {}) {
  return withEmulator({ ...CANARY_ACCOUNT, ...options }, async (emu) => {
    const dir = tempDir();
    const report = join(dir, 'report.json');
    const run = await runMain([...args, '--report', report], { env: { ...emu.env, ...env } });
    expectNoCanary(run, dir);
    return {
      run,
      report: existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as Report) : undefined,
      sent: emu.requests.length,
    };
  });
}

const reasons = (report: Report | undefined) =>
  (report?.requests ?? []).map((r) => r.continuation?.reason ?? 'planned');

describe('a silent server cap (emulator rowCap) is caught and completed', () => {
  const minutes = ['minutes', 'AAPL', '--start', '2025-01-02', '--end', '2025-03-01'];

  it('minutes: every row of the uncapped run, byte for byte, at a bounded cost in requests', async () => {
    const full = await pull({}, minutes);
    expect(full.run.code).toBe(0);
    expect(full.run.stdout.trim().split('\n')).toHaveLength(15_601);
    // a cap under the probe floor is not looked for (docs/completeness.md#probes): stated below
    for (const rowCap of [5000]) {
      const capped = await pull({ rowCap }, minutes);
      expect([capped.run.code, capped.run.stderr]).toEqual([0, '']);
      expect(capped.run.stdout).toBe(full.run.stdout);
      const kinds = reasons(capped.report);
      expect(kinds.filter((k) => k === 'planned')).toHaveLength(3);
      expect(kinds.filter((k) => k === 'cut').length).toBeGreaterThan(0);
      // ceil(15,600 / cap) responses at least; probes add a few, never one per window
      expect(capped.sent).toBeLessThanOrEqual(Math.ceil(15_600 / rowCap) + 5);
      for (const r of capped.report!.requests.filter((x) => x.continuation)) {
        expect(r.url).toMatch(/start=2025\d{10}/);
      }
    }
  });

  it.each(['second', 'exact'] as const)(
    'ticks (tickLimit %s): asc and desc, raw, identical to the uncapped run',
    async (tickLimit) => {
      for (const order of ['asc', 'desc']) {
        const args = [
          'ticks',
          'ESM25',
          'AAPL',
          '--start',
          '2025-03-12',
          '--end',
          '2025-03-15',
          '--format',
          'raw',
        ];
        const full = await pull({ ticksPerDay: 12_000 }, [...args, '--order', order]);
        const capped = await pull({ ticksPerDay: 12_000, rowCap: 5_000, tickLimit }, [
          ...args,
          '--order',
          order,
        ]);
        expect([capped.run.code, capped.run.stdoutBytes.equals(full.run.stdoutBytes)]).toEqual([0, true]);
        expect(reasons(capped.report)).toContain('cut');
      }
    },
  );

  it('--max-rows states the cap: completed with no probe; the user’s own --maxrecords is not completed', async () => {
    const stated = await pull({ rowCap: 1000 }, [...minutes, '--max-rows', '1000']);
    expect(stated.run.code).toBe(0);
    expect(stated.run.stdout.trim().split('\n')).toHaveLength(15_601);
    expect(reasons(stated.report)).not.toContain('probe');
    const env = await pull({ rowCap: 1000 }, minutes, { MDGET_MAX_ROWS: '1000' });
    expect(env.run.stdout).toBe(stated.run.stdout);
    const asked = await pull({}, ['minutes', 'AAPL', '--start', '2025-01-02', '--maxrecords', '100']);
    expect([asked.run.code, asked.sent, asked.run.stdout.trim().split('\n').length]).toEqual([0, 1, 101]);
  });

  it('a window that cannot be completed exits 4 and writes nothing', async () => {
    const dir = tempDir();
    const file = join(dir, 'x.csv');
    const result = await pull({ rowCap: 1, tickLimit: 'exact' }, [
      'ticks',
      'ESM25',
      '--start',
      '2025-03-13',
      '--max-rows',
      '1',
      '-o',
      file,
    ]);
    expect(result.run.code).toBe(4);
    expect(result.run.stderr).toMatch(
      /^mdget: cannot complete .*: all 1 rows have the time 2025-03-13 .* per request\n$/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('window boundaries: no duplicate and no missing row, whatever the end rule', () => {
  it.each(['inclusive', 'exclusive'] as const)('EOD end %s, in 7-day windows and in one', async (eodEnd) => {
    const args = ['eod', 'AAPL', 'ZCN25', '--start', '2025-01-06', '--end', '2025-03-03'];
    const one = await pull({ eodEnd }, args, NO_PROBES);
    const windows = await pull({ eodEnd }, [...args, '--window', '7d'], NO_PROBES);
    expect([one.run.code, windows.run.code]).toEqual([0, 0]);
    expect(windows.run.stdout).toBe(one.run.stdout);
    expect(windows.sent).toBe(2 * 8); // 56 days in 7-day windows, two symbols
    const rows = one.run.stdout.trim().split('\n').slice(1);
    const keys = rows.map((r) => r.split(',').slice(0, 2).join(','));
    expect(new Set(keys).size).toBe(keys.length);
    expect(rows.filter((r) => r.startsWith('AAPL,'))).toHaveLength(38); // trading days Jan 6 .. Feb 28, 2025 (19 + 19)
    expect(rows.at(-1)).toMatch(/^ZCN25,2025-02-28,/);
  });

  it('minutes and ticks in windows shorter than their default', async () => {
    for (const [args, window] of [
      [['minutes', 'ESM25', '--start', '2025-03-10', '--end', '2025-03-13'], '6h'],
      [['ticks', 'ESM25', '--start', '2025-03-13'], '2h'],
    ] as const) {
      const one = await pull({}, [...args], NO_PROBES);
      const split = await pull({}, [...args, '--window', window], NO_PROBES);
      expect(split.run.stdout).toBe(one.run.stdout);
      expect(split.sent).toBeGreaterThan(one.sent);
    }
    const refused = await pull({}, ['ticks', 'ESM25', '--start', '2025-03-13', '--window', '2d']);
    expect([refused.run.code, refused.sent]).toEqual([2, 0]);
    expect(refused.run.stderr).toMatch(/--window: ticks are served one day per request/);
  });
});

/** YYYY-MM-DD of `now` plus `days` in a zone. */
function dayIn(zone: string, days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

describe('re-runs that are safe for cron', () => {
  it('a window past the data cut-off is written but provisional: --skip-existing fetches it again', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const [yesterday, today, tomorrow] = [-1, 0, 1].map((d) => dayIn('America/Chicago', d));
      const args = [
        'ticks',
        '^BTCUSD',
        '--start',
        yesterday!,
        '--end',
        tomorrow!,
        '-o',
        join(dir, '{date}.csv'),
      ];
      const first = await runMain([...args, '--skip-existing'], { env: { ...emu.env, ...NO_PROBES } });
      expect(first.code).toBe(0);
      expect(dataFilesIn(dir).sort()).toEqual([
        `${yesterday}.csv`,
        `${today}.csv`,
        `${today}.csv.provisional`,
      ]);
      const before = requestsTo(emu, 'queryticks.ashx').length;
      const again = await runMain([...args, '--skip-existing', '-v'], { env: { ...emu.env, ...NO_PROBES } });
      expect(again.code).toBe(0);
      expect(again.stderr).toContain(`skipped ${join(dir, `${yesterday}.csv`)}`);
      expect(again.stderr).toContain('mdget: skipped 1 existing file (--skip-existing)\n');
      const fetched = requestsTo(emu, 'queryticks.ashx').slice(before);
      expect(fetched.map((r) => r.query.start)).toEqual([today!.replaceAll('-', '')]);
      expect(existsSync(join(dir, `${today}.csv.provisional`))).toBe(true);
    });
  });

  it.each([
    [['minutes', 'AAPL', '--start', '2025-03-10'], '2025-03-12T11:00', '2025-03-14'],
    [['ticks', 'ESM25', '--start', '2025-03-12'], '2025-03-13T10:00', '2025-03-14'],
    [['eod', 'AAPL', '--start', '2025-01-02'], '2025-02-10', '2025-03-01'],
  ])(
    '--update %j: resumes at the last rows, byte-equal to one full download',
    async (args, firstEnd, end) => {
      await withEmulator(CANARY_ACCOUNT, async (emu) => {
        const dir = tempDir();
        const file = join(dir, 'series.csv');
        const env = { ...emu.env, ...NO_PROBES };
        expect((await runMain([...args, '--end', firstEnd, '-o', file], { env })).code).toBe(0);
        const partial = readFileSync(file, 'utf8');
        const before = emu.requests.length;
        const update = await runMain([...args, '--end', end, '-o', file, '--update'], { env });
        expect([update.code, update.stderr]).toEqual([0, '']);
        const resumed = emu.requests.slice(before)[0]!;
        const lastKey = partial.trim().split('\n').at(-1)!.split(',')[1]!;
        const digits = lastKey.replace(/\D/g, '').slice(0, 14);
        expect(resumed.query.start).toBe(digits.length === 8 ? digits : digits.padEnd(14, '0'));
        const full = await runMain([...args, '--end', end], { env });
        expect(readFileSync(file, 'utf8')).toBe(full.stdout);
        expect(dataFilesIn(dir)).toEqual(['series.csv']);
      });
    },
  );

  it('--update is refused before any request where it cannot resume', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      for (const [args, message] of [
        [['ticks', 'ESM25', '--update', '--start', '2025-03-13'], /--update needs -o <file>/],
        [['ticks', 'ESM25', '--update', '-o', 'x.csv'], /--update needs --start/],
        [
          ['ticks', 'ESM25', '--update', '--start', '2025-03-13', '-o', 'x.json', '--format', 'json'],
          /JSON array/,
        ],
        [
          ['ticks', 'ESM25', '--update', '--start', '2025-03-13', '-o', 'x', '--order', 'desc'],
          /--order asc/,
        ],
        [['events', 'AAPL', '--update', '--start', '2025-03-13', '-o', 'x'], /ticks, minutes and eod/],
      ] as const) {
        const run = await runMain(args, { env: emu.env });
        expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(message)]);
      }
      expect(emu.requests).toHaveLength(0);
    });
  });
});

describe('spool files', () => {
  it.runIf(process.platform === 'linux')(
    'go beside the output, or into --temp-dir, unlinked while open: nothing is ever left',
    async () => {
      const { spawn } = await import('node:child_process');
      const { readdir, readlink } = await import('node:fs/promises');
      const { BIN, nodePath } = await import('../helpers/run-cli.js');
      await withEmulator({ ...CANARY_ACCOUNT, latency: 400 }, async (emu) => {
        const dir = tempDir();
        const elsewhere = tempDir();
        for (const [extra, where] of [
          [[], dir],
          [['--temp-dir', elsewhere], elsewhere],
        ] as const) {
          const args = ['ticks', 'ESM25', '--start', '2025-03-03', '--end', '2025-03-08', '--force', '-q'];
          const child = spawn(BIN, [...args, '-o', join(dir, 'all.csv'), '--concurrency', '4', ...extra], {
            env: { PATH: nodePath(), ...emu.env },
          });
          const seen = new Set<string>();
          const done = new Promise<number | null>((resolve) => child.on('close', resolve));
          let finished = false;
          done.then(() => (finished = true));
          while (!finished) {
            for (const fd of await readdir(`/proc/${child.pid}/fd`).catch(() => [])) {
              const target = await readlink(`/proc/${child.pid}/fd/${fd}`).catch(() => '');
              if (target.includes('.mdget-spool-')) seen.add(target);
            }
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          expect(await done).toBe(0);
          expect(seen.size).toBeGreaterThan(0);
          // every spool in the right place, and unlinked while open (a poll may catch one before its unlink)
          for (const path of seen) expect(path.startsWith(`${where}/.mdget-spool-`)).toBe(true);
          expect([...seen].some((path) => path.endsWith(' (deleted)'))).toBe(true);
          expect(readdirSync(where).filter((name) => name.includes('spool'))).toEqual([]);
        }
        const missing = await runMain(
          ['ticks', 'ESM25', '--start', '2025-03-13', '--temp-dir', join(dir, 'nope')],
          {
            env: emu.env,
          },
        );
        expect([missing.code, missing.stderr]).toEqual([
          2,
          expect.stringMatching(/--temp-dir .*: not a directory/),
        ]);
      });
    },
  );
});

describe('real exchanges lists', () => {
  it('legacy shape: <prefix>code is the feed code, freedelayed keeps eod; --find cbot lists CBOT and CBOTM', async () => {
    await withEmulator({ ...CANARY_ACCOUNT, exchangesShape: 'legacy' }, async (emu) => {
      const found = await runMain(['exchanges', '--find', 'cbot', '--format', 'ndjson'], { env: emu.env });
      expect(found.code).toBe(0);
      const list = found.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(list.map((e) => [e.id, e.feedcode])).toEqual([
        ['CBOT', 'B'],
        ['CBOTM', 'B'],
      ]);
      const all = await runMain(['exchanges', '--format', 'json'], { env: emu.env });
      const exchanges = JSON.parse(all.stdout) as Record<string, unknown>[];
      expect(exchanges.some((e) => e.freeDelayed === 'eod')).toBe(true);
      expect(exchanges.some((e) => Object.keys(e).join() === 'id,extra')).toBe(true);
      const cbot = await runMain(['instruments', 'cbot', '--format', 'csv'], { env: emu.env });
      expect(cbot.code).toBe(0);
    });
  });
});

describe('requests mdget would refuse from a user are never sent', () => {
  it('an EOD window whose last day the service adds (end inclusive) gets no probe from that day', async () => {
    await withEmulator({}, async (emu) => {
      const run = await runMain(['eod', 'AAPL', '--start', '2025-03-10', '--end', '2025-03-11'], {
        env: emu.env,
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout.trim().split('\n')).toHaveLength(2); // the header and 2025-03-10
      const sent = requestsTo(emu, 'queryeod.ashx').map((r) => `${r.query.start}-${r.query.end}`);
      expect(sent).toEqual(['20250310-20250311']);
    });
  });

  it("a continuation's report entry names its own window, not the one it continues", async () => {
    const capped = await pull({ rowCap: 100 }, [
      'minutes',
      'AAPL',
      '--start',
      '2025-03-10T09:30',
      '--end',
      '2025-03-10T16:00',
      '--max-rows',
      '100',
    ]);
    expect(capped.run.code).toBe(0);
    const entries = capped.report?.requests as { continuation?: unknown; url: string; start?: string }[];
    const continued = entries.filter((r) => r.continuation);
    expect(continued.length).toBeGreaterThan(2);
    for (const entry of continued) {
      const sent = new URL(entry.url).searchParams.get('start') ?? '';
      expect(entry.start?.replace(/[-T:]/g, '')).toBe(sent.padEnd(14, '0'));
    }
  });
});
