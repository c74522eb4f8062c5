import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT, expectNoCanary, fetchBytes, NO_PROBES, requestsTo } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const rowsOf = (stdout: string) => stdout.trimEnd().split('\n');

describe('every historical endpoint through the CLI', () => {
  it('minutes --nearby and --form-t use their endpoints; nearby rows keep the contract column', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const nearby = await runMain(
        ['minutes', 'ES', '--nearby', '--start', '2025-03-14T09:00', '--end', '2025-03-14T09:10'],
        { env: { ...emu.env, ...NO_PROBES } },
      );
      expect(nearby.code).toBe(0);
      expect(requestsTo(emu, 'querynearbyminutes.ashx')[0]?.query).toMatchObject({
        symbol: 'ES',
        start: '20250314090000',
      });
      const [header, ...rows] = rowsOf(nearby.stdout);
      expect(header).toBe('symbol,contract,time,trading_day,open,high,low,close,volume');
      expect(rows.length).toBe(10);
      for (const row of rows) expect(row).toMatch(/^ES,ES[HMUZ]\d{1,2},2025-03-14 09:0\d,14,/);
      const formT = await runMain(
        ['minutes', 'AAPL', '--form-t', '--start', '2025-03-14T04:00', '--end', '2025-03-14T04:05'],
        { env: { ...emu.env, ...NO_PROBES } },
      );
      expect(formT.code).toBe(0);
      expect(requestsTo(emu, 'queryformtminutes.ashx')).toHaveLength(1);
      expect(rowsOf(formT.stdout)[1]).toMatch(/^AAPL,2025-03-14 04:0\d,14,/);
      const both = await runMain(['minutes', 'ES', '--nearby', '--form-t'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect([both.code, both.stderr]).toEqual([
        2,
        expect.stringContaining('--nearby and --form-t exclude each other'),
      ]);
    });
  });

  it('events: one request with a symbols list and the chosen types; unknown symbols left out', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const run = await runMain(
        ['events', 'AAPL', 'NOPE', 'TSLA', '--splits', '--start', '2020-01-01', '--end', '2023-01-01'],
        { env: { ...emu.env, ...NO_PROBES } },
      );
      expect(run.code).toBe(0);
      const [request] = requestsTo(emu, 'queryevents.ashx');
      expect(request?.rawQuery).toContain('symbols=AAPL,NOPE,TSLA');
      expect(request?.query).toMatchObject({ splits: 'true', start: '20200101', end: '20230101' });
      expect(request?.query.dividends).toBeUndefined();
      expect(rowsOf(run.stdout)).toEqual([
        'symbol,date,event_type,value',
        'AAPL,2020-08-31,Split,4-1',
        'TSLA,2020-08-31,Split,5-1',
        'TSLA,2022-08-25,Split,3-1',
      ]);
      const all = await runMain(
        ['events', 'MSFT', '--start', '2025-01-01', '--end', '2025-04-01', '--format', 'ndjson'],
        { env: { ...emu.env, ...NO_PROBES } },
      );
      const types = new Set(
        rowsOf(all.stdout).map((l) => (JSON.parse(l) as { event_type: string }).event_type),
      );
      expect(types.size).toBeGreaterThan(1);
      const last = requestsTo(emu, 'queryevents.ashx').at(-1)!.query;
      expect([last.splits, last.dividends, last.earnings]).toEqual([undefined, undefined, undefined]);
    });
  });

  it('events: a long symbol list is split so each query stays under 2,000 bytes', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const symbols = Array.from({ length: 400 }, (_, i) => `SYM${i}`);
      const run = await runMain(['events', 'AAPL', ...symbols, '--splits'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(run.code).toBe(0);
      const requests = requestsTo(emu, 'queryevents.ashx');
      expect(requests.length).toBeGreaterThan(1);
      for (const r of requests) expect(r.rawQuery.length).toBeLessThan(2000);
      expect(requests.flatMap((r) => r.query.symbols!.split(','))).toEqual(['AAPL', ...symbols]);
      expect(rowsOf(run.stdout)[1]).toBe('AAPL,2020-08-31,Split,4-1');
    });
  });

  it('daterange minutes|eod: symbols as a list; other shapes pass through without failing', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const eod = await runMain(['daterange', 'eod', 'AAPL', 'ZCN25'], { env: { ...emu.env, ...NO_PROBES } });
      expect(eod.code).toBe(0);
      expect(requestsTo(emu, 'queryeoddaterange.ashx')[0]?.rawQuery).toContain('symbols=AAPL,ZCN25');
      const lines = rowsOf(eod.stdout);
      expect(lines[0]).toBe('symbol,first,last');
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['AAPL', 'ZCN25']);
      const minutes = await runMain(['daterange', 'minutes', 'AAPL'], { env: { ...emu.env, ...NO_PROBES } });
      expect(rowsOf(minutes.stdout)[1]).toMatch(
        /^AAPL,\d{4}-\d{2}-\d{2} \d{2}:\d{2},\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
      );
      const bad = await runMain(['daterange', 'weekly', 'AAPL'], { env: { ...emu.env, ...NO_PROBES } });
      expect([bad.code, bad.stderr]).toEqual([
        2,
        expect.stringContaining('Allowed choices are minutes, eod'),
      ]);
    });
    await withEmulator({ ...CANARY_ACCOUNT, dateRangeShape: 'symbol-first-last-count' }, async (emu) => {
      const run = await runMain(['daterange', 'eod', 'AAPL'], { env: { ...emu.env, ...NO_PROBES } });
      expect(run.code).toBe(0);
      const r = emu.requests[0]!;
      const raw = (await fetchBytes(`${emu.url}${r.path}?${r.rawQuery}`)).toString();
      expect(run.stdout).toBe(raw.replaceAll('\r\n', '\n'));
      const asRaw = await runMain(['daterange', 'eod', 'AAPL', '--format', 'raw'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(asRaw.stdout).toBe(raw);
    });
  });

  it('daterange: a symbol the service leaves out is refused as ticks and eod refuse one (exit 4)', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const run = await runMain(['daterange', 'minutes', 'AAPL', 'FOO', '-o', 'ranges.csv'], {
        env: emu.env,
        cwd: dir,
      });
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/^mdget: unknown symbol FOO: the service has no date range for it/);
      expect(existsSync(join(dir, 'ranges.csv'))).toBe(false);
      const known = await runMain(['daterange', 'minutes', 'AAPL'], { env: emu.env });
      expect(known.code).toBe(0);
    });
  });

  it('futopts: CSV and streamed JSON from the futures-options base, --date in service form', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const csv = await runMain(['futopts', 'ZC', '--date', '2025-03-13'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(csv.code).toBe(0);
      const [request] = requestsTo(emu, 'futuresoptions');
      expect(request?.path).toBe(new URL(`${emu.urls.futuresOptions}/futuresoptions`).pathname);
      expect(request?.query).toMatchObject({ root: 'ZC', date: '20250313' });
      const lines = rowsOf(csv.stdout);
      expect(lines[0]).toBe(
        'symbol,underlying,type,strike,expiration,date,open,high,low,close,volume,open_interest',
      );
      expect(lines.length).toBeGreaterThan(2);
      const json = await runMain(['futopts', 'ZC', '--date', '2025-03-13', '--json', '--format', 'raw'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(json.code).toBe(0);
      const r = requestsTo(emu, 'futuresoptions/json')[0]!;
      expect(json.stdoutBytes.equals(await fetchBytes(`${emu.url}${r.path}?${r.rawQuery}`))).toBe(true);
      const options = JSON.parse(json.stdout) as { symbol: string; strike: number }[];
      expect(options.length).toBe(lines.length - 1);
      expect(options[0]?.symbol).toBe(lines[1]?.split(',')[0]);
      const asJson = await runMain(['futopts', 'ZC', '--date', '2025-03-13', '--json', '--format', 'json'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(asJson.stdout).toBe(json.stdout);
      const unknown = await runMain(['futopts', 'NOPE', '--json', '--format', 'raw'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect([unknown.code, unknown.stderr]).toEqual([4, expect.stringContaining('Error: ')]);
      expectNoCanary(json);
    });
  });

  it.each([
    [['ticks', 'AAPL', '--start', '2025-03-14'], 'queryticks.ashx'],
    [['minutes', 'AAPL', '--start', '2025-03-14'], 'queryminutes.ashx'],
    [['minutes', 'ES', '--nearby', '--start', '2025-03-14'], 'querynearbyminutes.ashx'],
    [['minutes', 'AAPL', '--form-t', '--start', '2025-03-14'], 'queryformtminutes.ashx'],
    [['eod', 'AAPL', '--start', '2025-03-10'], 'queryeod.ashx'],
    [['events', 'AAPL'], 'queryevents.ashx'],
    [['daterange', 'minutes', 'AAPL'], 'queryminutedaterange.ashx'],
    [['daterange', 'eod', 'AAPL'], 'queryeoddaterange.ashx'],
    [['futopts', 'ZC'], 'futuresoptions'],
    [['futopts', 'ZC', '--json', '--format', 'raw'], 'futuresoptions/json'],
  ])('%j: --param passes through; --dry-run sends nothing', async (args, page) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dry = await runMain([...args, '--param', 'custom=a+b', '--dry-run'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(dry.code).toBe(0);
      expect(emu.requests).toHaveLength(0);
      expect(dry.stdout).toContain(`${page}?username=***&password=***&`);
      expect(dry.stdout).toContain('&custom=a%2Bb');
      const run = await runMain([...args, '--param', 'custom=a+b', '--param', 'padded=1'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(run.code).toBe(0);
      const seen = requestsTo(emu, page);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.query).toMatchObject({ custom: 'a+b', padded: '1' });
      expectNoCanary(run);
    });
  });
});
