/**
 * Per-exchange instruments files (docs/service.md#instruments-files): JSON arrays of instrument definitions
 * in the protobuf JSON mapping: 64-bit ids as decimal strings, enums as names, fields at default left out.
 * Content is fixed (it does not follow the clock) so ETags stay stable; `BIG` is generated as a stream.
 */
import { createHash } from 'node:crypto';
import { type Contract, contractOf, marketByCode } from './catalogue.js';
import { dayOf, MS_PER_DAY, ymdOf } from './dates.js';
import { fullEntryWriter } from './instruments-full.js';
import type { EmulatorOptions } from './options.js';

/** A JSON value of an instrument entry. */
type Json = string | number | boolean | Json[] | { [key: string]: Json | undefined };
/** One instrument definition. */
export type Entry = { [key: string]: Json | undefined };

/** Removes fields at their default (0, "", false, [], undefined), as the protobuf JSON mapping does. */
function omitDefaults(value: Json): Json | undefined {
  if (Array.isArray(value)) {
    const items = value.map(omitDefaults).filter((item): item is Json => item !== undefined);
    return items.length ? items : undefined;
  }
  if (typeof value === 'object') {
    const out: Entry = {};
    for (const [key, field] of Object.entries(value)) {
      const kept = field === undefined ? undefined : omitDefaults(field);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return value === 0 || value === '' || value === false ? undefined : value;
}

const NS_PER_MS = 1_000_000n;
const nanos = (day: number, extraMs = 0): string => String(BigInt(day * MS_PER_DAY + extraMs) * NS_PER_MS);
const millis = (day: number): string => String(day * MS_PER_DAY);

/**
 * Brand-carrying keys (docs/service.md#json-conventions): `vendorExchangeCode`, `vendorBaseCode`,
 * `vendorExchange` with the prefix.
 */
function vendorKeys(prefix: string, exchangeCode: string, baseCode: string, exchange: string): Entry {
  return {
    [`${prefix}ExchangeCode`]: exchangeCode,
    [`${prefix}BaseCode`]: baseCode,
    [`${prefix}Exchange`]: exchange,
  };
}

interface FutureInput {
  marketId: string;
  contract: Contract;
  mic: string;
  exchange: string;
  feedCode: string;
  increment: number;
  pointValue: number;
  denominator: number;
  extra?: Entry;
}

function futureEntry(prefix: string, input: FutureInput): Entry {
  const { contract } = input;
  const expiry = ymdOf(contract.expiryDay);
  const oneDigit = `${contract.root.code}${contract.code.slice(contract.root.code.length, -2)}${contract.year % 10}`;
  return {
    marketId: input.marketId,
    instrumentType: 'FUTURE',
    supportBookTypes: ['PRICE_LEVEL_DEPTH'],
    bookDepth: 10,
    vendorId: 'VENDOR',
    symbol: oneDigit,
    description: contract.root.description,
    cfiCode: 'FXXXXX',
    currencyCode: 'USD',
    exchangeCode: input.mic,
    minimumPriceIncrement: input.increment,
    contractPointValue: input.pointValue,
    calendar: {
      events: [
        { type: 'FIRST_TRADE_DATE', date: millis(contract.firstDay) },
        { type: 'LAST_TRADE_DATE', date: millis(contract.expiryDay) },
      ],
    },
    recordCreateTime: nanos(contract.firstDay, 3_000_000),
    recordUpdateTime: nanos(dayOf(2025, 3, 13), 1_234_567),
    timeZoneName: 'America/Chicago',
    instrumentGroup: contract.root.code,
    symbolExpiration: { year: expiry.year, month: expiry.month, day: expiry.day },
    channel: 1,
    priceFormat: { denominator: input.denominator, subDenominator: 1 },
    priceDenominator: input.denominator,
    quantityDenominator: 1,
    symbols: [
      {
        vendor: 'VENDOR',
        symbol: contract.code,
        longSymbol: `${contract.code.slice(0, -2)}${contract.year}`,
      },
      { vendor: 'exchange', symbol: oneDigit },
    ],
    exchangeSendsVolume: true,
    ...vendorKeys(prefix, input.feedCode, 'A', input.exchange),
    contractMaturity: { year: contract.year, month: contract.month },
    underlying: contract.root.code,
    exchangeId: 1,
    contractSize: String(input.pointValue),
    exchangeMetadata: { securityId: String(100 + contract.month), channelId: '310', sbeId: 1 },
    ...input.extra,
  };
}

const must = (root: string, year: number, month: number): Contract => {
  const market = marketByCode(root);
  const contract = market && contractOf(market, year, month);
  if (!contract) throw new Error(`emulator catalogue lacks ${root} ${year}-${month}`);
  return contract;
};

function cmeEntries(prefix: string): Entry[] {
  const base = {
    mic: 'XCME',
    exchange: 'CME',
    feedCode: 'M',
    increment: 0.25,
    pointValue: 50,
    denominator: 100,
  };
  return [
    futureEntry(prefix, { ...base, marketId: '4917813436427451121', contract: must('ES', 2025, 6) }),
    futureEntry(prefix, {
      ...base,
      marketId: '4917813436427451122',
      contract: must('ES', 2025, 9),
      // a key the tool does not model: kept as it is
      extra: { schedule: { sessions: [{ open: '17:00', close: '16:00', days: 'SUN-FRI' }] } },
    }),
    futureEntry(prefix, {
      ...base,
      marketId: '4917813436427440001',
      contract: must('ES', 2024, 12),
      extra: { state: 'PASSIVE' },
    }),
    futureEntry(prefix, {
      ...base,
      // above 2^53: a float would read it as ...992
      marketId: '9007199254740993',
      contract: must('NQ', 2025, 6),
      pointValue: 20,
      extra: { description: 'E-Mini Nasdaq-100' },
    }),
    futureEntry(prefix, {
      ...base,
      marketId: '4917813436427452001',
      contract: must('6E', 2025, 6),
      increment: 0.0000500000013,
      pointValue: 125000,
      denominator: 100000,
      extra: {
        priceFormat: { isFractional: false, denominator: 100000, subDenominator: 1, subFormat: 'DECIMAL' },
      },
    }),
    {
      marketId: '4917813436427470003',
      instrumentType: 'SPREAD',
      symbol: 'ESM5-ESU5',
      exchangeCode: 'XCME',
      spreadCode: 'SP',
      spreadLeg: [
        { marketId: '4917813436427451121', ratio: 1, symbol: 'ESM5' },
        { marketId: '4917813436427451122', ratio: -1, symbol: 'ESU5' },
      ],
    },
    {
      marketId: '4917813436427470004',
      instrumentType: 'USER_DEFINED_SPREAD',
      symbol: 'UD:1V: VT 0314931',
      exchangeCode: 'XCME',
      spreadLeg: [
        { marketId: '4917813436427451121', ratio: 2, symbol: 'ESM5' },
        { marketId: '4917813436427451122', ratio: -3, symbol: 'ESU5' },
      ],
    },
    {
      marketId: '5764607523034230001',
      instrumentType: 'OPTION',
      symbol: 'ESM5 C5600',
      exchangeCode: 'XCME',
      underlyingMarketId: '4917813436427451121',
      underlyingOpenfeedMarketId: '-4917813436427451121',
      optionStrike: '560000',
      optionStrikeDenominator: 100,
      optionType: 'CALL',
      optionStyle: 'AMERICAN',
      symbolExpiration: { year: 2025, month: 6, day: 20 },
      exchangeMetadata: {
        securityId: '4201',
        underlyingSecurityId: '118',
        securitySymbol: 'ESM5 C5600',
        sbeId: 1,
      },
    },
    {
      marketId: '5764607523034230002',
      instrumentType: 'OPTION',
      symbol: 'ESM5 P5600',
      exchangeCode: 'XCME',
      underlyingMarketId: '4917813436427451121',
      optionStrike: '560000',
      optionStrikeDenominator: 100,
      optionType: 'PUT',
      // an enum value this serializer does not know goes out as its number (docs/service.md#json-conventions)
      optionStyle: 7,
      symbolExpiration: { year: 2025, month: 6, day: 20 },
    },
  ];
}

function cbotEntries(prefix: string): Entry[] {
  const base = {
    mic: 'XCBT',
    exchange: 'CBOT',
    feedCode: 'B',
    increment: 0.25,
    pointValue: 50,
    denominator: 4,
  };
  const option = (marketId: string, type: 'CALL' | 'PUT'): Entry => ({
    marketId,
    instrumentType: 'OPTION',
    symbol: `ZCN5 ${type[0]}4700`,
    exchangeCode: 'XCBT',
    underlyingMarketId: '4917813436427460002',
    optionStrike: '47000',
    optionStrikeDenominator: 100,
    optionType: type,
    optionStyle: 'AMERICAN',
    optionStrikePriceFormat: { denominator: 8, subDenominator: 1 },
  });
  return [
    futureEntry(prefix, { ...base, marketId: '4917813436427460002', contract: must('ZC', 2025, 7) }),
    futureEntry(prefix, {
      ...base,
      marketId: '4917813436427460003',
      contract: must('ZC', 2025, 9),
      extra: {
        priceFormat: { isFractional: true, denominator: 4, subDenominator: 1, subFormat: 'FRACTIONAL' },
      },
    }),
    option('5764607523034234881', 'CALL'),
    option('5764607523034234882', 'PUT'),
  ];
}

function singleRootEntries(
  prefix: string,
  root: string,
  months: [number, number][],
  input: Omit<FutureInput, 'marketId' | 'contract'>,
  idBase: bigint,
): Entry[] {
  return months.map(([year, month], i) => {
    const entry = futureEntry(prefix, {
      ...input,
      marketId: String(idBase + BigInt(i)),
      contract: must(root, year, month),
    });
    const calendar = entry['calendar'] as { events: Entry[] };
    // physical futures carry notice and delivery dates too (docs/service.md#instrument-fields)
    calendar.events.push({ type: 'FIRST_NOTICE_DATE', date: millis(must(root, year, month).expiryDay + 3) });
    return entry;
  });
}

function equityEntry(
  prefix: string,
  marketId: string,
  symbol: string,
  mic: string,
  participant: string,
  description: string,
): Entry {
  return {
    marketId,
    instrumentType: 'EQUITY',
    vendorId: 'VENDOR',
    symbol,
    description,
    cfiCode: 'ESVUFR',
    currencyCode: 'USD',
    exchangeCode: mic,
    minimumPriceIncrement: 0.0099999998,
    timeZoneName: 'America/New_York',
    channel: 7,
    priceFormat: { denominator: 10000, subDenominator: 1 },
    priceDenominator: 10000,
    quantityDenominator: 1,
    symbols: [
      { vendor: 'VENDOR', symbol },
      { vendor: 'primarylistingmarketparticipantid', symbol: participant },
    ],
    consolidatedFeedInstrument: true,
    exchangeSendsVolume: true,
    exchangeSendsHigh: true,
    exchangeSendsLow: true,
    exchangeSendsOpen: true,
    ...vendorKeys(prefix, participant, 'E', mic === 'XNAS' ? 'NASDAQ' : 'NYSE'),
    recordCreateTime: nanos(dayOf(2020, 1, 2)),
    recordUpdateTime: nanos(dayOf(2025, 3, 13)),
  };
}

function simpleEntry(
  marketId: string,
  type: string,
  symbol: string,
  mic: string,
  zone: string,
  denominator: number,
): Entry {
  return {
    marketId,
    instrumentType: type,
    symbol,
    exchangeCode: mic,
    timeZoneName: zone,
    priceDenominator: denominator,
    quantityDenominator: 1,
    // an entry without vendorId and with a false flag: both omitted on the wire
    exchangeSendsVolume: false,
  };
}

function fixedEntries(id: string, prefix: string): Entry[] | undefined {
  const chicago = 'America/Chicago';
  switch (id) {
    case 'CME':
      return cmeEntries(prefix);
    case 'CBOT':
      return cbotEntries(prefix);
    case 'CBOTM':
      return [
        {
          ...simpleEntry('4917813436427460101', 'FUTURE', 'XCN5', 'XCBT', chicago, 8),
          description: 'Mini-sized Corn',
          ...vendorKeys(prefix, 'B', 'A', 'CBOT'),
        },
        {
          ...simpleEntry('4917813436427460102', 'FUTURE', 'YMM5', 'XCBT', chicago, 1),
          description: 'Mini-sized Dow ($5)',
          ...vendorKeys(prefix, 'B', 'A', 'CBOT'),
        },
      ];
    case 'NYMEX':
      return singleRootEntries(
        prefix,
        'CL',
        [
          [2025, 5],
          [2025, 6],
          [2025, 7],
        ],
        {
          mic: 'XNYM',
          exchange: 'NYMEX',
          feedCode: 'J',
          increment: 0.0099999998,
          pointValue: 1000,
          denominator: 100,
        },
        4917813436427480001n,
      );
    case 'COMEX':
      return singleRootEntries(
        prefix,
        'GC',
        [
          [2025, 4],
          [2025, 6],
        ],
        { mic: 'XCEC', exchange: 'COMEX', feedCode: 'K', increment: 0.1, pointValue: 100, denominator: 10 },
        4917813436427490001n,
      );
    case 'NYSE':
      return [
        equityEntry(prefix, '3000000000000000101', 'IBM', 'XNYS', 'N', 'International Business Machines'),
        equityEntry(prefix, '3000000000000000102', 'SPY', 'XNYS', 'P', 'SPDR S&P 500 ETF Trust'),
        equityEntry(prefix, '3000000000000000103', 'BRK.B', 'XNYS', 'N', 'Berkshire Hathaway Inc Class B'),
      ];
    case 'NASDAQ':
      return [
        equityEntry(prefix, '3000000000000000201', 'AAPL', 'XNAS', 'Q', 'Apple Inc'),
        equityEntry(prefix, '3000000000000000202', 'MSFT', 'XNAS', 'Q', 'Microsoft Corp'),
        equityEntry(prefix, '3000000000000000203', 'QQQ', 'XNAS', 'Q', 'Invesco QQQ Trust'),
        equityEntry(prefix, '3000000000000000204', 'TSLA', 'XNAS', 'Q', 'Tesla Inc'),
      ];
    case 'CBOE':
      return [
        simpleEntry('3000000000000000301', 'INDEX', 'SPX', 'XCBO', chicago, 100),
        simpleEntry('3000000000000000302', 'INDEX', 'VIX', 'XCBO', chicago, 100),
      ];
    case 'FOREX':
      return [
        simpleEntry('3000000000000000401', 'FOREX', 'EURUSD', 'XOFF', chicago, 100000),
        simpleEntry('3000000000000000402', 'FOREX', 'USDJPY', 'XOFF', chicago, 1000),
      ];
    case 'ICEUS':
      return [
        {
          ...simpleEntry('4917813436427500001', 'FUTURE', 'SBN5', 'IFUS', 'America/New_York', 100),
          description: 'Sugar No. 11',
          ...vendorKeys(prefix, 'I', 'A', 'ICEUS'),
        },
        {
          ...simpleEntry('4917813436427500002', 'FUTURE', 'KCN5', 'IFUS', 'America/New_York', 100),
          description: 'Coffee "C"',
          ...vendorKeys(prefix, 'I', 'A', 'ICEUS'),
        },
      ];
    case 'ICEEU':
      return [];
    case 'EUREX':
      return [
        {
          ...simpleEntry('4917813436427510001', 'FUTURE', 'FDAXM5', 'XEUR', 'Europe/Berlin', 10),
          currencyCode: 'EUR',
          description: 'DAX Futures – Zürich listing',
        },
      ];
    // the ids only the legacy exchanges list has (exchanges-legacy.ts)
    case 'NYSE_ARCA':
      return [equityEntry(prefix, '3000000000000000601', 'ARCX1', 'ARCX', 'P', 'Synthetic Arca ETF')];
    case 'LSE-AIM':
      return [
        {
          ...simpleEntry('3000000000000000701', 'EQUITY', 'ABCL', 'XLON', 'Europe/London', 100),
          currencyCode: 'GBP',
          description: 'Synthetic AIM listing',
        },
      ];
    case 'TEST_EX-1':
      return [];
    case 'OTC PINK':
      return [
        {
          ...simpleEntry('3000000000000000501', 'EQUITY', 'ABCDF', 'OTCM', 'America/New_York', 10000),
          state: 'ACTIVE',
        },
      ];
    default:
      return undefined;
  }
}

const BIG_KINDS = ['FUTURE', 'OPTION', 'SPREAD', 'EQUITY'] as const;
const MONTHS = 'FGHJKMNQUVXZ';

/** The i-th synthetic entry of an exchange (the BIG file and long captures). */
function syntheticEntry(exchange: string, index: number, prefix: string): Entry {
  const kind = BIG_KINDS[index % BIG_KINDS.length] ?? 'FUTURE';
  const marketId = String(6917529027641081856n + BigInt(index));
  const root = `Z${String.fromCharCode(65 + (Math.floor(index / 4) % 26))}${Math.floor(index / 104) % 100}`;
  const month = MONTHS[index % 12] ?? 'F';
  const symbol = `${root}${month}${5 + (index % 3)}`;
  switch (kind) {
    case 'FUTURE':
      return {
        marketId,
        instrumentType: kind,
        symbol,
        exchangeCode: `X${exchange}`,
        description: `Synthetic future ${index}`,
        minimumPriceIncrement: 0.25,
        priceDenominator: 100,
        symbolExpiration: { year: 2025 + (index % 3), month: (index % 12) + 1, day: 15 },
        ...vendorKeys(prefix, 'Z', 'A', exchange),
        recordCreateTime: nanos(dayOf(2024, 1, 1), index),
      };
    case 'OPTION':
      return {
        marketId,
        instrumentType: kind,
        symbol: `${symbol} C${100 + (index % 50)}`,
        exchangeCode: `X${exchange}`,
        underlyingMarketId: String(6917529027641081856n + BigInt(index - 1)),
        optionStrike: String((100 + (index % 50)) * 100),
        optionStrikeDenominator: 100,
        optionType: index % 8 === 1 ? 'CALL' : 'PUT',
        optionStyle: 'EUROPEAN',
      };
    case 'SPREAD':
      return {
        marketId,
        instrumentType: kind,
        symbol: `${symbol}-${root}Z9`,
        exchangeCode: `X${exchange}`,
        spreadLeg: [
          { marketId: String(6917529027641081856n + BigInt(index - 2)), ratio: 1, symbol },
          { marketId: String(6917529027641081856n + BigInt(index + 2)), ratio: -1, symbol: `${root}Z9` },
        ],
      };
    case 'EQUITY':
      return {
        marketId,
        instrumentType: kind,
        symbol: `S${index}`,
        exchangeCode: `X${exchange}`,
        currencyCode: 'USD',
      };
  }
}

/** A served instruments file: its ETag and a fresh stream of text chunks on every call. */
export interface InstrumentsFile {
  etag: string;
  chunks(): Iterable<string>;
}

function entryText(entry: Entry): string {
  return JSON.stringify(omitDefaults(entry));
}

/** The BIG file, about 128 KiB at a time: never the whole file in memory, whatever its size. */
function* bigChunks(count: number, prefix: string, full: boolean): Generator<string> {
  const fullEntry = full ? fullEntryWriter('BIG', prefix) : undefined;
  let chunk = '[';
  for (let i = 0; i < count; i++) {
    const entry = fullEntry ? fullEntry(i) : entryText(syntheticEntry('BIG', i, prefix));
    chunk += (i ? ',\n' : '\n') + entry;
    if (chunk.length >= 128 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}${count ? '\n' : ''}]\n`;
}

/** The instruments file of an exchange id (exact, case-sensitive like a static file), or undefined. */
export function instrumentsFile(
  id: string,
  options: Pick<EmulatorOptions, 'vendorPrefix' | 'instrumentsBigCount' | 'instrumentsSchema'>,
): InstrumentsFile | undefined {
  const { vendorPrefix: prefix, instrumentsBigCount: bigCount, instrumentsSchema: schema } = options;
  if (id === 'BIG') {
    const key = `BIG|${bigCount}|${prefix}|${schema}`;
    const etag = `"${createHash('sha1').update(key).digest('hex').slice(0, 16)}"`;
    return { etag, chunks: () => bigChunks(bigCount, prefix, schema === 'full') };
  }
  const entries = fixedEntries(id, prefix);
  if (!entries) return undefined;
  const text = entries.length ? `[\n${entries.map(entryText).join(',\n')}\n]\n` : '[]\n';
  const etag = `"${createHash('sha1').update(text).digest('hex').slice(0, 16)}"`;
  return { etag, chunks: () => [text] };
}

/** Entries of an exchange for captures: its fixed entries, or synthetic ones. */
export function exchangeEntries(id: string, count: number, prefix: string): Entry[] {
  const fixed = (fixedEntries(id, prefix) ?? []).map((entry) => omitDefaults(entry) as Entry);
  const entries = fixed.slice(0, count);
  for (let i = entries.length; i < count; i++)
    entries.push(omitDefaults(syntheticEntry(id, i, prefix)) as Entry);
  return entries;
}
