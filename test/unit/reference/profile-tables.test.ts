import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { divideDecimal } from '../../../src/core/reference/decimal.js';
import { calendarDate, epochMsToIsoDate, epochNsToIso } from '../../../src/core/reference/epoch.js';
import { parseInstrumentArray } from '../../../src/core/reference/instrument-stream.js';
import { toProfileRows } from '../../../src/core/reference/profile-rows.js';
import { collect, fixtureStream } from './helpers.js';

const entries = await collect(parseInstrumentArray(fixtureStream('instruments.json')));
const rowsOf = (index: number) => toProfileRows(entries[index] ?? {});
const entryOf = async (json: string) => {
  const [entry] = await collect(parseInstrumentArray(Readable.from([`[${json}]`])));
  return entry ?? {};
};

describe('divideDecimal', () => {
  it.each([
    ['47000', '100', '470'],
    ['4725', '10', '472.5'],
    ['-4725', '10', '-472.5'],
    ['5', '8', '0.625'],
    ['-1', '-4', '0.25'],
    ['0', '7', '0'],
    ['12.5', '4', '3.125'],
    ['9223372036854775807', '1000', '9223372036854775.807'],
    ['1', '3', '0.33333333333333333333'],
    ['3', '0', undefined],
    ['1e3', '1', undefined],
  ])('%s / %s = %s', (numerator, denominator, quotient) =>
    expect(divideDecimal(numerator, denominator)).toBe(quotient),
  );
});

describe('epoch conversions', () => {
  it.each([
    ['1710460800000', '2024-03-15'],
    ['1750377600000', '2025-06-20'],
    ['-86400000', '1969-12-31'],
    ['17x', undefined],
    ['99999999999999999', undefined],
  ])('ms %s → %s', (ms, date) => expect(epochMsToIsoDate(ms)).toBe(date));

  it.each([
    ['1741900000000000000', '2025-03-13T21:06:40.000000000Z'],
    ['1710463000123456789', '2024-03-15T00:36:40.123456789Z'],
    ['9223372036854775807', '2262-04-11T23:47:16.854775807Z'],
    ['-1', '1969-12-31T23:59:59.999999999Z'],
    ['0', '1970-01-01T00:00:00.000000000Z'],
  ])('ns %s → %s', (ns, iso) => expect(epochNsToIso(ns)).toBe(iso));

  it('agrees with Date on random instants, both sides of 1970 and near the year limits', () => {
    // What epoch.ts computed before its arithmetic fast path, as the reference.
    const viaDate = (ms: number) => new Date(ms).toISOString();
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const limits = [-30610224000000, 253402300799999, 253402300800000, -30610224000001, 0, -1, 86399999];
    const samples = [...limits, ...Array.from({ length: 5000 }, () => Math.round((random() - 0.3) * 4e14))];
    for (const ms of samples) {
      expect(epochMsToIsoDate(String(ms))).toBe(viaDate(ms).slice(0, -14));
      if (ms >= 0) {
        const ns = `${ms}${String(Math.floor(random() * 1e6)).padStart(6, '0')}`;
        expect(epochNsToIso(ns)).toBe(
          `${viaDate(Math.floor(ms / 1000) * 1000).slice(0, -5)}.${ns.padStart(9, '0').slice(-9)}Z`,
        );
      }
    }
  });

  it.each([
    [[2025, 6, 20], '2025-06-20'],
    [[25, 7, 3], '2025-07-03'],
    [[2025, 6, 0], '2025-06'],
    [[2025, 0, 0], '2025'],
    [[2025, 13, 1], undefined],
  ] as const)('parts %o → %s', ([year, month, day], date) =>
    expect(calendarDate(year, month, day)).toBe(date),
  );
});

describe('toProfileRows', () => {
  it('maps the documented FUTURE sample', () => {
    const { instrument, symbols, spreadLegs } = rowsOf(0);
    expect(instrument).toMatchObject({
      marketId: '4917813436427451121',
      symbol: 'ESM5',
      exchangeCode: 'XCME',
      instrumentType: 'FUTURE',
      description: 'E-Mini S&P 500',
      currencyCode: 'USD',
      cfiCode: 'FXXXXX',
      vendorId: 'VENDOR',
      vendorExchange: 'CME',
      vendorExchangeCode: 'M',
      vendorBaseCode: 'A',
      exchangeId: 1,
      instrumentGroup: 'ES',
      tickSize: 0.25,
      pointValue: 50,
      priceDenominator: 100,
      quantityDenominator: 1,
      timeZone: 'America/Chicago',
      firstTradeDate: '2024-03-15',
      lastTradeDate: '2025-06-20',
      expiration: '2025-06-20',
      maturity: '2025-06',
      underlying: 'ES',
      optionStrike: null,
      contractSize: '50',
      createdAt: '2024-03-15T00:36:40.000000000Z',
      updatedAt: '2025-03-13T21:06:40.000000000Z',
    });
    expect(JSON.parse(instrument.extra ?? '{}')).toEqual({
      supportBookTypes: ['PRICE_LEVEL_DEPTH'],
      bookDepth: 10,
      calendar: {
        events: [
          { type: 'FIRST_TRADE_DATE', date: '1710460800000' },
          { type: 'LAST_TRADE_DATE', date: '1750377600000' },
        ],
      },
      channel: 1,
      priceFormat: { denominator: 100, subDenominator: 1 },
      exchangeSendsVolume: true,
      exchangeMetadata: { securityId: '118', channelId: '310', sbeId: 1 },
    });
    expect(symbols).toEqual([
      { marketId: '4917813436427451121', vendor: 'VENDOR', symbol: 'ESM25', longSymbol: 'ESM2025' },
      { marketId: '4917813436427451121', vendor: 'exchange', symbol: 'ESM5', longSymbol: null },
    ]);
    expect(spreadLegs).toEqual([]);
  });

  it('scales the option strike and keeps the price format', () => {
    const { instrument } = rowsOf(1);
    expect(instrument).toMatchObject({
      optionStrike: '470',
      optionType: 'CALL',
      optionStyle: 'AMERICAN',
      underlyingMarketId: '4917813436427460002',
    });
    expect(instrument.extra).toBe('{"optionStrikePriceFormat":{"denominator":8,"subDenominator":1}}');
  });

  it('turns spread legs into rows in order, negative ratio kept', () => {
    const { instrument, spreadLegs } = rowsOf(2);
    expect(instrument.spreadCode).toBe('SP');
    expect(instrument.extra).toBeNull();
    expect(spreadLegs).toEqual([
      {
        marketId: '4917813436427470003',
        legIndex: 0,
        legMarketId: '4917813436427451121',
        ratio: 1,
        symbol: 'ESM5',
      },
      {
        marketId: '4917813436427470003',
        legIndex: 1,
        legMarketId: '4917813436427451122',
        ratio: -1,
        symbol: 'ESU5',
      },
    ]);
  });

  it('maps branded vendor keys and keeps unknown fields and numbers as written', () => {
    const { instrument, symbols } = rowsOf(3);
    expect(instrument).toMatchObject({
      marketId: '9007199254740993',
      vendorExchangeCode: 'Q',
      vendorBaseCode: 'E',
      vendorExchange: 'NASDAQ',
      isin: 'US0000000001',
      state: 'ACTIVE',
      updatedAt: '2025-03-13T21:06:40.123456789Z',
    });
    expect(String(instrument.tickSize)).toBe('0.0099999998');
    expect(String(instrument.pointValue)).toBe('1.0');
    expect(instrument.extra).toBe(
      '{"channel":7,"consolidatedFeedInstrument":true,"listingHistory":{"listedOn":"2001-05-17","previousSymbols":["ACMC"],"weight":1E-3}}',
    );
    expect(symbols.map((row) => row.vendor)).toEqual(['VENDOR', 'primarylistingmarketparticipantid']);
  });

  it('keeps a bare-number id exact and adds 2000 to a 2-digit expiry year', () => {
    const { instrument } = rowsOf(4);
    expect(instrument).toMatchObject({
      marketId: '9223372036854775807',
      underlyingMarketId: '9007199254740993',
      optionStrike: '-472.5',
      expiration: '2025-07-03',
      lastTradeDate: '2025-07-03',
      firstTradeDate: null,
    });
    expect(instrument.extra).toBe(
      '{"calendar":{"events":[{"type":"LAST_TRADE_DATE","date":1751500800000}]},"futureFlag":"NEW_ENUM_VALUE"}',
    );
  });

  it('prefers the protocol name over a branded one and keeps the loser', async () => {
    const { instrument } = toProfileRows(
      await entryOf('{"marketId":"1","acmeExchangeCode":"X","vendorExchangeCode":"M"}'),
    );
    expect(instrument.vendorExchangeCode).toBe('M');
    expect(instrument.extra).toBe('{"acmeExchangeCode":"X"}');
  });

  it('keeps fields a column cannot render whole in extra', async () => {
    const { instrument, symbols } = toProfileRows(
      await entryOf(
        '{"optionStrike":"abc","optionStrikeDenominator":100,"symbolExpiration":{"year":2025,"month":6,"week":3},' +
          '"symbols":[{"vendor":"V","symbol":"S","note":"n"}],"recordUpdateTime":"soon","symbol":{"odd":true}}',
      ),
    );
    expect(instrument).toMatchObject({
      marketId: '0',
      optionStrike: null,
      expiration: null,
      updatedAt: null,
      symbol: null,
    });
    expect(symbols).toEqual([{ marketId: '0', vendor: 'V', symbol: 'S', longSymbol: null }]);
    expect(JSON.parse(instrument.extra ?? '{}')).toEqual({
      symbolExpiration: { year: 2025, month: 6, week: 3 },
      symbols: [{ vendor: 'V', symbol: 'S', note: 'n' }],
      recordUpdateTime: 'soon',
      symbol: { odd: true },
      optionStrike: 'abc',
      optionStrikeDenominator: 100,
    });
  });

  it('treats a missing strike denominator as unscaled and enum numbers as text', async () => {
    const { instrument } = toProfileRows(await entryOf('{"optionStrike":"4725","instrumentType":99}'));
    expect(instrument).toMatchObject({ optionStrike: '4725', instrumentType: '99', extra: null });
  });
});
