import { describe, expect, it } from 'vitest';
import { withEmulator } from '../helpers/with-emulator.js';
import { crlfLines, historical } from './http.js';

const MINUTES = 'queryminutes.ashx';
const EOD = 'queryeod.ashx';
const NOW = new Date('2025-03-14T23:00:00Z');

const minuteOfDay = (time: string) => Number(time.slice(11, 13)) * 60 + Number(time.slice(14, 16));

describe('emulator: minute bars', () => {
  it('aggregates intervals from one-minute bars, aligned to multiples after midnight', async () => {
    await withEmulator({}, async (emu) => {
      const bars = (query: Record<string, string>) =>
        historical(emu, MINUTES, {
          symbol: 'AAPL',
          start: '202503140930',
          end: '202503141030',
          ...query,
        }).then((r) => crlfLines(r.body).map((line) => line.split(',')));
      const ones = await bars({});
      const fives = await bars({ interval: '5' });
      expect(ones).toHaveLength(60);
      expect(fives).toHaveLength(12);
      fives.forEach((bar, i) => {
        const group = ones.slice(i * 5, i * 5 + 5);
        expect(bar).toEqual([
          group[0]?.[0],
          '14',
          group[0]?.[2],
          String(Math.max(...group.map((b) => Number(b[3])))),
          String(Math.min(...group.map((b) => Number(b[4])))),
          group[4]?.[5],
          String(group.reduce((sum, b) => sum + Number(b[6]), 0)),
        ]);
      });
      const sevens = await bars({ interval: '7' });
      expect(sevens.every((bar) => minuteOfDay(bar[0] ?? '') % 7 === 0)).toBe(true);
      expect(sevens[0]?.[0]).toBe('2025-03-14 09:34');
    });
    await withEmulator({ barAlign: 'session', barLabel: 'end' }, async (emu) => {
      const lines = crlfLines(
        (await historical(emu, MINUTES, { symbol: 'AAPL', start: '20250314', interval: '7' })).body,
      );
      expect(lines[0]?.startsWith('2025-03-14 09:37,')).toBe(true);
    });
  });

  it('adds the contract column for ROOT*n (8 fields) and rolls nearby minutes at expiry', async () => {
    await withEmulator({}, async (emu) => {
      const query = { start: '202503130900', end: '202503130905' };
      const first = crlfLines((await historical(emu, MINUTES, { symbol: 'ES*1', ...query })).body);
      const second = crlfLines((await historical(emu, MINUTES, { symbol: 'ES*2', ...query })).body);
      const plain = crlfLines((await historical(emu, MINUTES, { symbol: 'ESH25', ...query })).body);
      expect(first.map((line) => line.split(',').length)).toEqual([8, 8, 8, 8, 8]);
      expect(first.every((line) => line.startsWith('ESH25,2025-03-13 09:0'))).toBe(true);
      expect(second.every((line) => line.startsWith('ESM25,'))).toBe(true);
      expect(first.map((line) => line.slice('ESH25,'.length))).toEqual(plain);
      const nearby = crlfLines(
        (
          await historical(emu, 'querynearbyminutes.ashx', {
            symbol: 'ESU5',
            start: '202503201555',
            end: '202503201705',
          })
        ).body,
      );
      expect(nearby.map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
        ...['55', '56', '57', '58', '59'].map((m) => `ESH25,2025-03-20 15:${m},20`),
        ...['00', '01', '02', '03', '04'].map((m) => `ESM25,2025-03-20 17:${m},21`),
      ]);
      const bare = await historical(emu, 'querynearbyminutes.ashx', {
        symbol: 'ES',
        start: '202503201555',
        end: '202503201705',
      });
      expect(crlfLines(bare.body)).toEqual(nearby);
    });
  });

  it('serves Form-T hours 04:00-20:00 ET, plain minutes 09:30-16:00', async () => {
    await withEmulator({}, async (emu) => {
      const day = { symbol: 'MSFT', start: '20250314', end: '20250315' };
      const plain = crlfLines((await historical(emu, MINUTES, day)).body);
      const formT = crlfLines((await historical(emu, 'queryformtminutes.ashx', day)).body);
      expect([plain[0]?.slice(0, 16), plain.at(-1)?.slice(0, 16), plain.length]).toEqual([
        '2025-03-14 09:30',
        '2025-03-14 15:59',
        390,
      ]);
      expect(formT[0]?.slice(11, 13)).toBe('04');
      expect(formT.at(-1)?.slice(11, 13)).toBe('19');
      expect(formT.every((line) => line.split(',').length === 7)).toBe(true);
    });
  });

  it('runs start + maxrecords without end to the latest data, not to the day end', async () => {
    await withEmulator({ now: NOW }, async (emu) => {
      const times = (query: Record<string, string>) =>
        historical(emu, MINUTES, { symbol: 'AAPL', start: '20250312', ...query }).then((r) =>
          crlfLines(r.body).map((line) => line.slice(0, 16)),
        );
      const oneDay = await times({});
      expect([oneDay.length, oneDay[0], oneDay.at(-1)]).toEqual([
        390,
        '2025-03-12 09:30',
        '2025-03-12 15:59',
      ]);
      const limited = await times({ maxrecords: '1000' });
      expect(limited).toHaveLength(1000);
      expect(limited.slice(0, 390)).toEqual(oneDay);
      expect(limited.at(-1)?.startsWith('2025-03-14 ')).toBe(true);
      expect(await times({ maxrecords: '2', order: 'desc' })).toEqual([
        '2025-03-14 15:59',
        '2025-03-14 15:58',
      ]);
      const nearby = crlfLines(
        (
          await historical(emu, 'querynearbyminutes.ashx', {
            symbol: 'ES',
            start: '202503121500',
            maxrecords: '3',
            order: 'desc',
          })
        ).body,
      );
      expect(nearby).toHaveLength(3);
      expect(nearby.every((line) => line.startsWith('ESH25,2025-03-14 15:5'))).toBe(true);
      expect([...nearby].sort().reverse()).toEqual(nearby);
    });
  });

  it('walks back across days with end + maxrecords, and sends trend lines of 3 fields', async () => {
    await withEmulator({}, async (emu) => {
      const back = crlfLines(
        (await historical(emu, MINUTES, { symbol: 'AAPL', end: '20250317', maxrecords: '3' })).body,
      );
      expect(back.map((line) => line.slice(0, 16))).toEqual([
        '2025-03-14 15:57',
        '2025-03-14 15:58',
        '2025-03-14 15:59',
      ]);
      const trend = crlfLines(
        (await historical(emu, MINUTES, { symbol: 'AAPL', start: '20250314', interval: '60', trend: 'Y' }))
          .body,
      );
      expect(trend).toHaveLength(7);
      expect(trend.every((line) => /^2025-03-14 \d\d:00,[\d.]+,[\d.]+$/.test(line))).toBe(true);
    });
  });
});

describe('emulator: EOD', () => {
  const eod = (emu: Parameters<Parameters<typeof withEmulator>[1]>[0], query: Record<string, string>) =>
    historical(emu, EOD, query).then((r) => crlfLines(r.body));

  it('writes 7 fields for equities and indices, 8 for futures', async () => {
    await withEmulator({}, async (emu) => {
      const range = { start: '20250303', end: '20250315' };
      const aapl = await eod(emu, { symbol: 'AAPL', ...range });
      expect(aapl).toHaveLength(10);
      expect(aapl.every((line) => /^AAPL,2025-03-\d\d,([\d.]+,){4}\d+$/.test(line))).toBe(true);
      const corn = await eod(emu, { symbol: 'ZCN25', ...range });
      expect(corn.every((line) => /^ZCN25,2025-03-\d\d,([\d.]+,){4}\d+,\d+$/.test(line))).toBe(true);
      const spx = await eod(emu, { symbol: '$SPX', ...range });
      expect(spx.every((line) => /^\$SPX,2025-03-\d\d,([\d.]+,){4}$/.test(line))).toBe(true);
    });
  });

  it('aggregates periods, dated by the first or last trading day', async () => {
    const range = { symbol: 'AAPL', start: '20250303', end: '20250315' };
    await withEmulator({}, async (emu) => {
      const daily = (await eod(emu, range)).map((line) => line.split(','));
      const weekly = (await eod(emu, { ...range, data: 'weekly' })).map((line) => line.split(','));
      const summed = (await eod(emu, { ...range, data: 'weekly', volume: 'sum' })).map((line) =>
        line.split(','),
      );
      expect(weekly.map((bar) => bar[1])).toEqual(['2025-03-03', '2025-03-10']);
      const week = daily.slice(0, 5);
      const volumes = week.map((bar) => Number(bar[6]));
      expect(weekly[0]).toEqual([
        'AAPL',
        '2025-03-03',
        week[0]?.[2],
        String(Math.max(...week.map((bar) => Number(bar[3])))),
        String(Math.min(...week.map((bar) => Number(bar[4])))),
        week[4]?.[5],
        String(Math.round(volumes.reduce((a, b) => a + b) / 5)),
      ]);
      expect(summed[0]?.[6]).toBe(String(volumes.reduce((a, b) => a + b)));
    });
    await withEmulator({ periodDate: 'last' }, async (emu) => {
      expect((await eod(emu, { ...range, data: 'weekly' })).map((line) => line.split(',')[1])).toEqual([
        '2025-03-07',
        '2025-03-14',
      ]);
    });
  });

  it('keeps end inclusive, exclusive with eodEnd=exclusive; events keep it exclusive', async () => {
    const dates = (lines: string[]) => lines.map((line) => line.split(',')[1]);
    const week = ['2025-03-10', '2025-03-11', '2025-03-12', '2025-03-13', '2025-03-14'];
    await withEmulator({ now: NOW }, async (emu) => {
      expect(dates(await eod(emu, { symbol: 'AAPL', start: '20250310', end: '20250314' }))).toEqual(week);
      expect(dates(await eod(emu, { symbol: 'ZCN25', start: '20250314', end: '20250314' }))).toEqual([
        '2025-03-14',
      ]);
      expect(dates(await eod(emu, { symbol: 'AAPL', end: '20250313', maxrecords: '2' }))).toEqual([
        '2025-03-12',
        '2025-03-13',
      ]);
      expect(dates(await eod(emu, { symbol: 'AAPL', end: '202503131200', maxrecords: '1' }))).toEqual([
        '2025-03-13',
      ]);
      const events = await historical(emu, 'queryevents.ashx', {
        symbols: 'AAPL',
        splits: 'true',
        start: '20200831',
        end: '20200831',
      });
      expect(events.body.length).toBe(0);
    });
    await withEmulator({ now: NOW, eodEnd: 'exclusive' }, async (emu) => {
      expect(dates(await eod(emu, { symbol: 'AAPL', start: '20250310', end: '20250314' }))).toEqual(
        week.slice(0, 4),
      );
      expect(await eod(emu, { symbol: 'ZCN25', start: '20250314', end: '20250314' })).toEqual([]);
      expect(dates(await eod(emu, { symbol: 'AAPL', end: '20250313', maxrecords: '2' }))).toEqual([
        '2025-03-11',
        '2025-03-12',
      ]);
    });
  });

  it('ignores maxrecords with start, walks back from end without it, reverses with desc', async () => {
    await withEmulator({ now: NOW }, async (emu) => {
      expect(
        await eod(emu, { symbol: 'AAPL', start: '20250303', end: '20250315', maxrecords: '2' }),
      ).toHaveLength(10);
      const back = await eod(emu, { symbol: 'AAPL', end: '20250315', maxrecords: '3' });
      expect(back.map((line) => line.split(',')[1])).toEqual(['2025-03-12', '2025-03-13', '2025-03-14']);
      const newest = await eod(emu, { symbol: 'AAPL', maxrecords: '2', order: 'desc' });
      expect(newest.map((line) => line.split(',')[1])).toEqual(['2025-03-14', '2025-03-13']);
      const oldest = await eod(emu, { symbol: 'AAPL', maxrecords: '2' });
      expect(oldest.map((line) => line.split(',')[1])).toEqual(['2020-01-02', '2020-01-03']);
    });
  });

  it('names the contract of each line for nearest, continue and ROOT*n', async () => {
    await withEmulator({}, async (emu) => {
      const symbols = async (query: Record<string, string>) =>
        (await eod(emu, { start: '20250317', end: '20250322', ...query }))
          .map((line) => line.split(',')[0])
          .join(' ');
      expect(await symbols({ symbol: 'ESM25', data: 'dailynearest' })).toBe('ESH25 ESH25 ESH25 ESM25 ESM25');
      expect(await symbols({ symbol: 'ESM25', data: 'dailynearest', daystoexpiration: '0' })).toBe(
        'ESH25 ESH25 ESH25 ESH25 ESM25',
      );
      expect(await symbols({ symbol: 'ESM25', data: 'dailynearest', nearby: '2' })).toBe(
        'ESM25 ESM25 ESM25 ESU25 ESU25',
      );
      expect(await symbols({ symbol: 'ES*1' })).toBe('ESH25 ESH25 ESH25 ESH25 ESM25');
      expect(await symbols({ symbol: 'esm5' })).toBe('ESM5 ESM5 ESM5 ESM5 ESM5');
      const chained = await eod(emu, {
        symbol: 'ESM25',
        data: 'dailycontinue',
        start: '20240617',
        end: '20240622',
      });
      expect(chained.map((line) => line.split(',')[0]).join(' ')).toBe('ESM24 ESM24 ESM24 ESM25 ESM25');
    });
  });

  it('answers nearest and continue on an equity with its plain records', async () => {
    await withEmulator({}, async (emu) => {
      const range = { symbol: 'AAPL', start: '20250303', end: '20250314' };
      const daily = await eod(emu, range);
      expect(daily).toHaveLength(10);
      expect(await eod(emu, { ...range, data: 'dailynearest' })).toEqual(daily);
      expect(await eod(emu, { ...range, data: 'DailyContinue' })).toEqual(daily);
      const weekly = await eod(emu, { ...range, data: 'weekly' });
      expect(await eod(emu, { ...range, data: 'weeklynearest' })).toEqual(weekly);
      expect(
        await eod(emu, { symbol: '$SPX', start: '20250303', end: '20250307', data: 'dailynearest' }),
      ).toEqual(await eod(emu, { symbol: '$SPX', start: '20250303', end: '20250307' }));
    });
  });

  it('back-adjusts older contracts and un-adjusts splits on request', async () => {
    await withEmulator({}, async (emu) => {
      const query = { symbol: 'ES*1', start: '20250317', end: '20250322' };
      const plain = await eod(emu, query);
      const adjusted = await eod(emu, { ...query, backadjust: 'true' });
      expect(adjusted.slice(-1)).toEqual(plain.slice(-1));
      expect(adjusted[0]).not.toEqual(plain[0]);
      const close = (lines: string[]) => Number(lines[0]?.split(',')[5]);
      const split = { symbol: 'AAPL', start: '20200828', end: '20200829' };
      expect(close(await eod(emu, { ...split, splits: 'false' })) / close(await eod(emu, split))).toBeCloseTo(
        4,
        2,
      );
      const trend = await eod(emu, { symbol: 'AAPL', start: '20250303', end: '20250315', trend: 'y' });
      expect(trend.every((line) => /^AAPL,2025-03-\d\d,[\d.]+,[\d.]+$/.test(line))).toBe(true);
    });
  });
});

describe('emulator: events and date ranges', () => {
  it('lists events in request order then by date, unknown symbols left out', async () => {
    await withEmulator({}, async (emu) => {
      const events = (query: Record<string, string>) =>
        historical(emu, 'queryevents.ashx', query).then((r) => crlfLines(r.body));
      const lines = await events({ symbols: 'MSFT,NOPE,AAPL', start: '20200801', end: '20201201' });
      const symbols = lines.map((line) => line.split(',')[0]);
      expect(symbols.indexOf('AAPL')).toBeGreaterThan(symbols.lastIndexOf('MSFT'));
      expect(symbols).not.toContain('NOPE');
      expect(lines).toContain('AAPL,2020-08-31,Split,4-1');
      const aaplDates = lines
        .filter((line) => line.startsWith('AAPL'))
        .map((line) => line.split(',')[1] ?? '');
      expect([...aaplDates].sort()).toEqual(aaplDates);
      expect(
        lines.every((line) => /^(MSFT|AAPL),2020-\d\d-\d\d,(Split|Dividend|Earnings),[\d.-]+$/.test(line)),
      ).toBe(true);
      expect(await events({ symbols: 'TSLA,AAPL', splits: 'true' })).toEqual([
        'TSLA,2020-08-31,Split,5-1',
        'TSLA,2022-08-25,Split,3-1',
        'AAPL,2020-08-31,Split,4-1',
      ]);
      expect(await events({ symbols: 'AAPL', splits: 'true', end: '20200831' })).toEqual([]);
      expect(await events({ symbols: 'NOPE,ZZZ' })).toEqual([]);
      const dividends = await events({
        symbols: 'IBM',
        dividends: 'true',
        earnings: 'true',
        start: '20240101',
        end: '20250101',
      });
      expect(new Set(dividends.map((line) => line.split(',')[2]))).toEqual(new Set(['Dividend', 'Earnings']));
    });
    await withEmulator({ splitNotation: 'ratio' }, async (emu) => {
      const lines = crlfLines(
        (await historical(emu, 'queryevents.ashx', { symbols: 'AAPL', splits: 'true' })).body,
      );
      expect(lines).toEqual(['AAPL,2020-08-31,Split,4']);
    });
  });

  it('answers date ranges per known symbol, in request order', async () => {
    await withEmulator({ now: NOW }, async (emu) => {
      const eod = crlfLines(
        (await historical(emu, 'queryeoddaterange.ashx', { symbols: 'AAPL,NOPE,ZCN25' })).body,
      );
      expect(eod[0]).toBe('AAPL,2020-01-02,2025-03-14');
      expect(eod[1]).toMatch(/^ZCN25,2024-\d\d-\d\d,2025-03-14$/);
      expect(eod).toHaveLength(2);
      const minutes = crlfLines(
        (await historical(emu, 'queryminutedaterange.ashx', { symbol: 'AAPL' })).body,
      );
      expect(minutes).toEqual(['AAPL,2020-01-02 04:00,2025-03-14 19:59']);
    });
    await withEmulator({ now: NOW, dateRangeShape: 'symbol-first-last-count' }, async (emu) => {
      const lines = crlfLines((await historical(emu, 'queryeoddaterange.ashx', { symbols: 'AAPL' })).body);
      expect(lines[0]).toMatch(/^AAPL,2020-01-02,2025-03-14,\d+$/);
    });
  });
});
