/**
 * The exchanges list as the 2012 and 2013 documents show it (docs/service.md#exchanges-list,
 * `exchangesShape=legacy`): every attribute optional, the feed code under `<prefix>code` (written `code`
 * here, renamed with `exchangesCodePrefix`), `freedelayed` not a boolean, no time-zone, snapshot or EOD-time
 * attributes. Every id of the documented list is here too, so instruments files keep resolving; the traps a
 * parser must survive are listed beside the entries that carry them.
 */

/** One `<exchange/>` as attribute name-value pairs in document order. */
export type LegacyExchange = readonly (readonly [string, string])[];

type Fields = {
  code?: string;
  delay?: string;
  description?: string;
  codes?: string;
  feewaiver?: 'yes' | 'no';
  data_frequency?: string;
  freedelayed?: 'yes' | 'no' | 'eod';
};

const ORDER = [
  'code',
  'delay',
  'description',
  'codes',
  'feewaiver',
  'data_frequency',
  'freedelayed',
] as const;

function legacy(id: string, fields: Fields = {}): LegacyExchange {
  const pairs: [string, string][] = [['id', id]];
  for (const name of ORDER) {
    const value = fields[name];
    if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}

const futures = { delay: '10', feewaiver: 'no', data_frequency: '1', freedelayed: 'no' } as const;

/** The legacy list in document order. */
export const LEGACY_EXCHANGES: readonly LegacyExchange[] = [
  legacy('CME', { ...futures, code: 'M', description: 'CME Globex', codes: 'CME,XCME' }),
  legacy('CBOT', { ...futures, code: 'B', description: 'Chicago Board of Trade', codes: 'CBOT,XCBT' }),
  // shares CBOT's code; a codes entry with a space; no feewaiver
  legacy('CBOTM', {
    code: 'B',
    delay: '10',
    description: 'CBOT Mini-sized',
    codes: 'CBOT MINI,XCBT',
    data_frequency: '1',
    freedelayed: 'no',
  }),
  legacy('NYMEX', {
    ...futures,
    code: 'J',
    description: 'New York Mercantile Exchange',
    codes: 'NYMEX,XNYM',
  }),
  legacy('COMEX', { ...futures, code: 'K', description: 'Commodity Exchange Inc', codes: 'COMEX,XCEC' }),
  legacy('NYSE', {
    code: 'N',
    delay: '15',
    description: 'New York Stock Exchange',
    codes: 'NYSE,XNYS',
    feewaiver: 'yes',
    data_frequency: '1',
    freedelayed: 'yes',
  }),
  // an id with '_'; a code of a lower-case letter and a digit
  legacy('NYSE_ARCA', {
    code: 'p2',
    delay: '15',
    description: 'NYSE Arca',
    codes: 'ARCA,ARCX',
    feewaiver: 'yes',
    data_frequency: '1',
    freedelayed: 'yes',
  }),
  // freedelayed is a third value, not a boolean
  legacy('NASDAQ', {
    code: 'Q',
    delay: '15',
    description: 'Nasdaq Stock Market',
    codes: 'NASDAQ,XNAS',
    feewaiver: 'yes',
    data_frequency: '1',
    freedelayed: 'eod',
  }),
  // a code of one '$'
  legacy('CBOE', {
    code: '$',
    delay: '15',
    description: 'Cboe Global Indices',
    codes: 'CBOE,XCBO',
    feewaiver: 'no',
    data_frequency: '5',
    freedelayed: 'no',
  }),
  legacy('ICEUS', { ...futures, code: 'I', description: 'ICE Futures U.S.', codes: 'ICEUS,IFUS' }),
  legacy('ICEEU', { ...futures, code: 'e1', description: 'ICE Futures Europe', codes: 'ICEEU,IFEU' }),
  // no code attribute; '&' escaped in the description
  legacy('EUREX', {
    delay: '15',
    description: 'Eurex Deutschland & Zürich',
    codes: 'EUREX,XEUR',
    data_frequency: '1',
    freedelayed: 'no',
  }),
  legacy('FOREX', {
    code: 'F',
    delay: '0',
    description: 'Foreign Exchange Spot',
    codes: 'FX',
    feewaiver: 'no',
    data_frequency: '1',
    freedelayed: 'yes',
  }),
  // an id with '-'; the longest delay, a whole day
  legacy('LSE-AIM', {
    code: 'l9',
    delay: '1440',
    description: 'London Stock Exchange AIM & Main Market',
    codes: 'LSE,XLON,AIM',
    feewaiver: 'no',
    data_frequency: '1',
    freedelayed: 'eod',
  }),
  // no code, empty codes
  legacy('OTC PINK', { delay: '0', description: 'OTC Pink Open Market', codes: '', freedelayed: 'yes' }),
  // nothing but the id, which has both '_' and '-'
  legacy('TEST_EX-1'),
  legacy('BIG', {
    ...futures,
    code: 'Z',
    delay: '0',
    description: 'Synthetic Large Exchange',
    codes: 'BIG,XBIG',
  }),
];
