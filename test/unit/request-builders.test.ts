import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/core/model/config.js';
import {
  buildExchangesUrl,
  buildInstrumentsUrl,
  eodDateRangeRequest,
  eodRequest,
  eventsRequest,
  formTMinutesRequest,
  futuresOptionsJsonRequest,
  futuresOptionsRequest,
  minuteDateRangeRequest,
  minutesRequest,
  nearbyMinutesRequest,
  requestTarget,
  requestUrl,
  type ServiceRequest,
  ticksRequest,
} from '../../src/core/plan/urls.js';

// A request as planned (no base, no credentials), then built and signed on a configuration as when sent.
const signed =
  <A extends unknown[]>(build: (...args: A) => ServiceRequest) =>
  (c: Config, ...args: A): URL =>
    requestUrl(build(...args), c);
const buildTicksUrl = signed(ticksRequest);
const buildMinutesUrl = signed(minutesRequest);
const buildNearbyMinutesUrl = signed(nearbyMinutesRequest);
const buildFormTMinutesUrl = signed(formTMinutesRequest);
const buildEodUrl = signed(eodRequest);
const buildEventsUrl = signed(eventsRequest);
const buildMinuteDateRangeUrl = signed(minuteDateRangeRequest);
const buildEodDateRangeUrl = signed(eodDateRangeRequest);
const buildFuturesOptionsUrl = signed(futuresOptionsRequest);
const buildFuturesOptionsJsonUrl = signed(futuresOptionsJsonRequest);

const config: Config = {
  username: 'u',
  password: 'p',
  historicalUrl: 'http://h.test/hist',
  futuresOptionsUrl: 'http://fo.test/base/',
  extrasUrl: 'http://x.test',
  exchangesPath: 'exchanges',
  instrumentsUrl: 'http://i.test/files',
};
const H = 'http://h.test/hist/';
const day = (iso: string) => new Date(`${iso}Z`);

describe('request builders: options in, URL out', () => {
  it.each([
    [buildTicksUrl(config, 'ESM25', {}), `${H}queryticks.ashx?username=u&password=p&symbol=ESM25&order=asc`],
    [
      buildTicksUrl(config, 'AAPL', {
        start: day('2025-03-14T00:00:00'),
        end: day('2025-03-15T00:00:00'),
        maxrecords: 10,
        order: 'desc',
        sessionFilter: '+T',
        trend: true,
      }),
      `${H}queryticks.ashx?username=u&password=p&symbol=AAPL&start=20250314&end=20250315&maxrecords=10&order=desc&sessionfilter=%2BT&trend=y`,
    ],
    [
      buildTicksUrl(config, 'ES*1', { start: day('2025-03-14T09:30:15') }),
      `${H}queryticks.ashx?username=u&password=p&symbol=ES%2A1&start=20250314093015&order=asc`,
    ],
    [
      buildMinutesUrl(config, '^EURUSD', { interval: 5, maxrecords: 3 }),
      `${H}queryminutes.ashx?username=u&password=p&symbol=%5EEURUSD&interval=5&maxrecords=3&order=asc`,
    ],
    [
      buildNearbyMinutesUrl(config, 'ESM25', {}),
      `${H}querynearbyminutes.ashx?username=u&password=p&symbol=ESM25&order=asc`,
    ],
    [
      buildFormTMinutesUrl(config, '$SPX', { trend: true }),
      `${H}queryformtminutes.ashx?username=u&password=p&symbol=%24SPX&order=asc&trend=y`,
    ],
    [buildEodUrl(config, 'AAPL', {}), `${H}queryeod.ashx?username=u&password=p&symbol=AAPL&order=asc`],
    [
      buildEodUrl(config, 'ZC*1', {
        period: 'weekly',
        nearest: true,
        volume: 'sum',
        backadjust: true,
        daysToExpiration: 0,
        contractRoll: 'combined',
        nth: 2,
        adjustSplits: 'false',
        adjustDividends: 'true',
        trend: true,
      }),
      `${H}queryeod.ashx?username=u&password=p&symbol=ZC%2A1&data=weeklynearest&order=asc&volume=sum&backadjust=true&daystoexpiration=0&contractroll=combined&nearby=2&splits=false&dividends=true&trend=y`,
    ],
    [
      buildEodUrl(config, 'ZCN25', { continue: true }),
      `${H}queryeod.ashx?username=u&password=p&symbol=ZCN25&data=dailycontinue&order=asc`,
    ],
    [
      buildEventsUrl(config, ['AAPL', 'MSFT'], { splits: true, start: day('2020-01-01T00:00:00') }),
      `${H}queryevents.ashx?username=u&password=p&symbols=AAPL,MSFT&start=20200101&splits=true`,
    ],
    [
      buildMinuteDateRangeUrl(config, ['AAPL', 'BRK.B']),
      `${H}queryminutedaterange.ashx?username=u&password=p&symbols=AAPL,BRK.B`,
    ],
    [
      buildEodDateRangeUrl(config, ['ZCN25']),
      `${H}queryeoddaterange.ashx?username=u&password=p&symbols=ZCN25`,
    ],
    [
      buildFuturesOptionsUrl(config, 'ZC', { date: day('2025-03-13T00:00:00') }),
      'http://fo.test/base/futuresoptions?username=u&password=p&root=ZC&date=20250313',
    ],
    [
      buildFuturesOptionsJsonUrl(config, 'ZC', {}),
      'http://fo.test/base/futuresoptions/json?username=u&password=p&root=ZC',
    ],
    [buildExchangesUrl(config), 'http://x.test/exchanges.php'],
    [buildInstrumentsUrl(config, 'CME Globex'), 'http://i.test/files/CME%20Globex-instruments.json'],
  ])('%s', (url, expected) => expect(url.href).toBe(expected));

  it('passes extra parameters through unchanged, after the modelled ones', () => {
    const url = buildTicksUrl(config, 'AAPL', {}, [
      ['type', 'Q'],
      ['exchId', '7'],
    ]);
    expect(url.href).toBe(`${H}queryticks.ashx?username=u&password=p&symbol=AAPL&order=asc&type=Q&exchId=7`);
  });

  it('plans hold no credentials and no base: dates of a series come from the window it is sent for', () => {
    const request = eodRequest('ZCN25', {
      period: 'weekly',
      start: { slot: 'start' },
      end: { slot: 'lastDayBefore' },
    });
    expect(JSON.stringify(request)).not.toMatch(/username|password|h\.test/);
    const window = { start: day('2025-03-03T00:00:00'), end: day('2025-03-17T00:00:00') };
    expect(requestTarget(request, window)).toBe(
      'queryeod.ashx?symbol=ZCN25&data=weekly&start=20250303&end=20250316&order=asc',
    );
    expect(requestUrl(request, config, window).href).toBe(
      `${H}queryeod.ashx?username=u&password=p&symbol=ZCN25&data=weekly&start=20250303&end=20250316&order=asc`,
    );
    // an open side leaves its date out; no credentials configured, none sent
    expect(requestUrl(request, { historicalUrl: config.historicalUrl }, { start: window.start }).href).toBe(
      `${H}queryeod.ashx?symbol=ZCN25&data=weekly&start=20250303&order=asc`,
    );
  });

  it('encodes credentials that need it', () => {
    const url = buildTicksUrl({ ...config, password: 'p&w=+1' }, 'AAPL', {});
    expect(url.href).toContain('password=p%26w%3D%2B1&');
  });
});
