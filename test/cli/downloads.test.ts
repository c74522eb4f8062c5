import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CANARY_ACCOUNT,
  dataFilesIn,
  expectNoCanary,
  fetchBytes,
  NO_PROBES,
  requestsTo,
} from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const TICK_LINE = /^ESM25,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3},\d{1,2},[^,]?,-?\d+(\.\d+)?,\d*$/;

describe('mdget ticks / minutes / eod against the emulator', () => {
  it('ticks: one request per calendar day, in order, csv with one header, a symbol column and LF line ends', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const run = await runMain(['ticks', 'ESM25', '--start', '2025-03-12', '--end', '2025-03-14'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(run.code).toBe(0);
      const ticks = requestsTo(emu, 'queryticks.ashx');
      expect(ticks.map((r) => [r.query.symbol, r.query.start, r.query.end, r.query.order])).toEqual([
        ['ESM25', '20250312', '20250313', 'asc'],
        ['ESM25', '20250313', '20250314', 'asc'],
      ]);
      expect(run.stdoutBytes.includes(13)).toBe(false);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('symbol,time,trading_day,session_code,price,size');
      expect(lines.filter((l) => l.startsWith('symbol,'))).toHaveLength(1);
      for (const line of lines.slice(1)) expect(line).toMatch(TICK_LINE);
      // Same records as the service sent, CRLF → LF, days concatenated in order.
      const raw = await Promise.all(
        ticks.map((r) => fetchBytes(`${emu.url}${r.path}?${r.rawQuery}`).then((b) => b.toString('utf8'))),
      );
      const expected = raw
        .join('')
        .replaceAll('\r\n', '\n')
        .replace(/^(?=.)/gm, 'ESM25,');
      expect(lines.slice(1).join('\n') + '\n').toBe(expected);
      const days = lines.slice(1).map((l) => l.slice(6, 16));
      expect(days).toEqual([...days].sort());
      expectNoCanary(run);
    });
  });

  it('--format raw writes the service bytes unchanged; --no-header drops the header', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const raw = await runMain(['ticks', 'AAPL', '--start', '2025-03-14', '--format', 'raw'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(raw.code).toBe(0);
      const r = emu.requests[0]!;
      expect(raw.stdoutBytes.equals(await fetchBytes(`${emu.url}${r.path}?${r.rawQuery}`))).toBe(true);
      expect(raw.stdout).toContain('\r\n');
      const noHeader = await runMain(['ticks', 'AAPL', '--start', '2025-03-14', '--no-header'], {
        env: emu.env,
      });
      expect(noHeader.stdout).toBe(raw.stdout.replaceAll('\r\n', '\n').replace(/^(?=.)/gm, 'AAPL,'));
    });
  });

  it('several symbols: requests in order, output concatenated in that order', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const run = await runMain(
        ['eod', 'MSFT', 'AAPL', 'ZCN25', '--start', '2025-03-10', '--end', '2025-03-12'],
        { env: { ...emu.env, ...NO_PROBES } },
      );
      expect(run.code).toBe(0);
      // later requests are fetched ahead, so they may reach the service first; the output keeps the order
      expect(
        requestsTo(emu, 'queryeod.ashx')
          .map((r) => r.query.symbol)
          .sort(),
      ).toEqual(['AAPL', 'MSFT', 'ZCN25']);
      const symbols = run.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]);
      expect(symbols).toEqual(['MSFT', 'MSFT', 'AAPL', 'AAPL', 'ZCN25', 'ZCN25']);
      // Equities have no open interest: an empty last field keeps every row as wide as the header.
      const widths = run.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(',').length);
      expect(new Set(widths)).toEqual(new Set([8]));
    });
  });

  it('minutes and eod send every modelled parameter', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const m = await runMain(
        [
          'minutes',
          'AAPL',
          '--start',
          '2025-03-14T09:30',
          '--end',
          '2025-03-14T16:00',
          '--interval',
          '5',
          '--maxrecords',
          '3',
          '--order',
          'desc',
        ],
        { env: emu.env },
      );
      expect(m.code).toBe(0);
      expect(requestsTo(emu, 'queryminutes.ashx')[0]?.query).toMatchObject({
        symbol: 'AAPL',
        start: '20250314093000',
        end: '20250314160000',
        interval: '5',
        maxrecords: '3',
        order: 'desc',
      });
      const rows = m.stdout.trim().split('\n').slice(1);
      expect(rows).toHaveLength(3);
      expect([...rows].sort().reverse()).toEqual(rows);
      const e = await runMain(
        [
          'eod',
          'ZC*1',
          '--period',
          'weekly',
          '--nearest',
          '--volume',
          'sum',
          '--backadjust',
          '--days-to-expiration',
          '5',
          '--contract-roll',
          'combined',
          '--start',
          '2025-01-01',
          '--end',
          '2025-03-01',
        ],
        { env: emu.env },
      );
      expect(e.code).toBe(0);
      expect(requestsTo(emu, 'queryeod.ashx')[0]?.query).toMatchObject({
        symbol: 'ZC*1',
        data: 'weeklynearest',
        volume: 'sum',
        backadjust: 'true',
        daystoexpiration: '5',
        contractroll: 'combined',
        start: '20250101',
        // the last day before --end: the service's end is inclusive, and a period takes in every day sent
        end: '20250228',
      });
    });
  });

  it('a ROOT*n symbol on plain minutes yields the contract column, named in the header', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const run = await runMain(
        ['minutes', 'ES*1', '--start', '2025-03-13T09:00', '--end', '2025-03-13T09:05'],
        { env: emu.env },
      );
      expect(run.code).toBe(0);
      const [header, first] = run.stdout.split('\n');
      expect(header).toBe('symbol,contract,time,trading_day,open,high,low,close,volume');
      expect(first?.split(',')).toHaveLength(9);
      expect(first).toMatch(/^ES\*1,ESH25,2025-03-13 09:00,/);
    });
  });

  it('ndjson and json keep numbers as written and add the symbol', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const nd = await runMain(
        ['ticks', 'AAPL', '--start', '2025-03-14', '--maxrecords', '3', '--format', 'ndjson'],
        { env: emu.env },
      );
      const raw = await runMain(
        ['ticks', 'AAPL', '--start', '2025-03-14', '--maxrecords', '3', '--format', 'raw'],
        { env: emu.env },
      );
      const objects = nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const lines = raw.stdout.trim().split('\r\n');
      // maxrecords may be exceeded by the rest of the last tick's second
      // (docs/service.md#maxrecords-and-order): as many as raw has
      expect(objects).toHaveLength(lines.length);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      objects.forEach((o, i) => {
        const [time, day, code, price, size] = lines[i]!.split(',');
        expect(o).toEqual({
          symbol: 'AAPL',
          time,
          trading_day: Number(day),
          session_code: code,
          price: Number(price),
          size: size === '' ? null : Number(size),
        });
        expect(nd.stdout.split('\n')[i]).toContain(`"price":${price}`);
      });
      const json = await runMain(
        ['ticks', 'AAPL', '--start', '2025-03-14', '--maxrecords', '3', '--format', 'json'],
        { env: emu.env },
      );
      expect(JSON.parse(json.stdout)).toEqual(objects);
      const empty = await runMain(['ticks', 'AAPL', '--start', '2025-03-15', '--format', 'json'], {
        env: emu.env,
      });
      expect([empty.code, JSON.parse(empty.stdout)]).toEqual([0, []]);
    });
  });

  it('LF and CRLF services give the same csv; gzip is asked for and decoded', async () => {
    const outputs: string[] = [];
    for (const options of [
      { lineEnding: 'lf' as const },
      { lineEnding: 'crlf' as const, gzip: 'never' as const },
      {},
    ]) {
      await withEmulator({ ...CANARY_ACCOUNT, ...options }, async (emu) => {
        const run = await runMain(['minutes', 'AAPL', '--start', '2025-03-14', '--end', '2025-03-15'], {
          env: emu.env,
        });
        expect(run.code).toBe(0);
        expect(emu.requests[0]?.headers['accept-encoding']).toContain('gzip');
        outputs.push(run.stdout);
      });
    }
    expect(outputs[0]!.length).toBeGreaterThan(100);
    expect(new Set(outputs).size).toBe(1);
  });

  it('zero records: exit 0, a note on stderr, a csv of its header alone', async () => {
    await withEmulator({ ...CANARY_ACCOUNT, unknownSymbol: 'empty' }, async (emu) => {
      const header = 'symbol,time,trading_day,session_code,price,size\n';
      const run = await runMain(['ticks', 'NOPE', '--start', '2025-03-14'], { env: emu.env });
      expect([run.code, run.stdout]).toEqual([0, header]);
      expect(run.stderr).toMatch(/no records for ticks NOPE 2025-03-14/);
      const quiet = await runMain(['ticks', 'AAPL', '--start', '2025-03-15', '-q'], { env: emu.env }); // a Saturday
      expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, header, '']);
      const raw = await runMain(['ticks', 'AAPL', '--start', '2025-03-15', '-q', '--format', 'raw'], {
        env: emu.env,
      });
      expect([raw.code, raw.stdout]).toEqual([0, '']);
    });
  });
});

describe('mdget output files', () => {
  it('-o writes atomically; an existing file is refused before any request unless --force', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const file = join(dir, 'sub', 'aapl.csv');
      const first = await runMain(
        ['eod', 'AAPL', '--start', '2025-03-03', '--end', '2025-03-08', '-o', file],
        { env: emu.env },
      );
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('');
      const content = readFileSync(file, 'utf8');
      expect(content.split('\n')).toHaveLength(7);
      const before = emu.requests.length;
      const again = await runMain(['eod', 'AAPL', '-o', file], { env: emu.env });
      expect(again.code).toBe(6);
      expect(again.stderr).toMatch(/aapl\.csv exists: pass --force/);
      expect(emu.requests).toHaveLength(before);
      const forced = await runMain(
        ['eod', 'AAPL', '--start', '2025-03-03', '--end', '2025-03-05', '-o', file, '--force'],
        { env: emu.env },
      );
      expect(forced.code).toBe(0);
      expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(4);
      expect(dataFilesIn(join(dir, 'sub'))).toEqual(['aapl.csv']);
      expectNoCanary(forced, dir);
    });
  });

  it('templates: one file per symbol and day; --skip-existing does not request them again; --report lists each request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const template = join(dir, '{command}-{symbol}-{date}.{ext}');
      const args = ['ticks', 'AAPL', 'ES*1', '--start', '2025-03-13', '--end', '2025-03-15', '-o', template];
      const run = await runMain([...args, '--report', join(dir, 'report.json')], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(run.code).toBe(0);
      expect(dataFilesIn(dir).sort()).toEqual([
        'report.json',
        'ticks-AAPL-2025-03-13.csv',
        'ticks-AAPL-2025-03-14.csv',
        'ticks-ES_1-2025-03-13.csv',
        'ticks-ES_1-2025-03-14.csv',
      ]);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
        requests: Record<string, unknown>[];
      };
      expect(report.requests).toHaveLength(4);
      expect(report.requests[0]).toMatchObject({
        symbol: 'AAPL',
        start: '2025-03-13',
        status: 'ok',
        output: join(dir, 'ticks-AAPL-2025-03-13.csv'),
      });
      expect(report.requests[0]?.url).toContain('password=***');
      const rows = readFileSync(join(dir, 'ticks-AAPL-2025-03-13.csv'), 'utf8').trim().split('\n').length - 1;
      expect(report.requests[0]?.rows).toBe(rows);
      const before = emu.requests.length;
      const skip = await runMain([...args, '--skip-existing'], { env: emu.env });
      expect(skip.code).toBe(0);
      expect(emu.requests).toHaveLength(before);
      expectNoCanary(run, dir);
    });
  });

  it('requests for one output overlap on the network (--concurrency) and still arrive in order', async () => {
    await withEmulator({ ...CANARY_ACCOUNT, faults: [{ kind: 'slow', delayMs: 400 }] }, async (emu) => {
      const args = ['ticks', 'ESM25', '--start', '2025-03-03', '--end', '2025-03-09'];
      // Arrival times at the server, not wall clocks of a loaded test machine: serial requests come at least
      // one slow response apart; parallel ones are sent together.
      const gaps = (from: number) => {
        const arrived = emu.requests.slice(from).map((r) => r.arrivedMs);
        return arrived.slice(1).map((at, i) => at - arrived[i]!);
      };
      const env = { ...emu.env, ...NO_PROBES }; // the six days only
      const serial = await runMain([...args, '--concurrency', '1'], { env });
      const serialGaps = gaps(0);
      const before = emu.requests.length;
      const parallel = await runMain([...args, '--concurrency', '4'], { env });
      const parallelGaps = gaps(before);
      expect([serial.code, parallel.code]).toEqual([0, 0]);
      expect(parallel.stdout).toBe(serial.stdout);
      expect(serialGaps).toHaveLength(5);
      expect(Math.min(...serialGaps)).toBeGreaterThanOrEqual(400);
      expect(parallelGaps.slice(0, 3).every((gap) => gap < 400)).toBe(true);
      const days = parallel.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.slice(6, 16));
      expect(days).toEqual([...days].sort());
    });
  });

  it('--shard splits the planned requests deterministically', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const args = ['ticks', 'AAPL', '--start', '2025-03-10', '--end', '2025-03-14', '--dry-run'];
      const all = (await runMain(args, { env: emu.env })).stdout.trim().split('\n');
      const one = (await runMain([...args, '--shard', '1/2'], { env: emu.env })).stdout.trim().split('\n');
      const two = (await runMain([...args, '--shard', '2/2'], { env: emu.env })).stdout.trim().split('\n');
      expect(all).toHaveLength(4);
      expect([...one, ...two].sort()).toEqual([...all].sort());
      expect(one).toEqual([all[0], all[2]]);
    });
  });

  it('--symbols-file adds symbols, ignoring blanks and comments', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'list.txt'), '# mine\nMSFT\n\n  IBM  # big blue\n');
      const run = await runMain(
        ['eod', 'AAPL', '--symbols-file', 'list.txt', '--start', '2025-03-10', '--end', '2025-03-11'],
        {
          env: { ...emu.env, ...NO_PROBES },
          cwd: dir,
        },
      );
      expect(run.code).toBe(0);
      // requests run concurrently: which symbols were asked, not their arrival order
      expect(
        requestsTo(emu, 'queryeod.ashx')
          .map((r) => r.query.symbol)
          .sort(),
      ).toEqual(['AAPL', 'IBM', 'MSFT']);
      expect(existsSync(join(dir, 'list.txt'))).toBe(true);
    });
  });
});
