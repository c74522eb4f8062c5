/**
 * The exchanges list (docs/service.md#exchanges-list): `<exchanges>` of `exchange` elements carrying
 * everything in attributes. `ICEUS` and `ICEEU` both say "Futures" in their description, so a search is
 * ambiguous; `CBOT` and `CBOTM` both contain "cbot"; `BIG` has the large instruments file; `OTC PINK` has a
 * space in its id and lacks some attributes. `exchangesShape=legacy` serves the 2012/2013 shape instead
 * (exchanges-legacy.ts).
 */
import { LEGACY_EXCHANGES } from './exchanges-legacy.js';
import type { EmulatorOptions } from './options.js';

/** One exchange of the list; attributes absent when undefined. */
export interface ExchangeEntry {
  id: string;
  description: string;
  attributes: Record<string, string>;
}

const US_FUTURES = { timezone_local: 'America/Chicago', timezone_feed: 'America/Chicago' };
const US_EQUITIES = { timezone_local: 'America/New_York', timezone_feed: 'America/New_York' };

const exchange = (id: string, description: string, attributes: Record<string, string>): ExchangeEntry => ({
  id,
  description,
  attributes,
});

const common = (feedcode: string, delay: string, codes: string, extra: Record<string, string>) => ({
  feedcode,
  delay,
  data_frequency: '1',
  codes,
  feewaiver: 'no',
  freedelayed: 'no',
  snapshot_frequency: '5',
  ...extra,
});

/** The exchanges of the emulator's list, in document order. */
const EXCHANGES: readonly ExchangeEntry[] = [
  exchange('CME', 'CME Globex', {
    ...common('M', '10', 'CME,XCME', US_FUTURES),
    eod_release_time: '17:30:00',
    eod_cutoff_time: '16:00:00',
  }),
  exchange('CBOT', 'Chicago Board of Trade', {
    ...common('B', '10', 'CBOT,XCBT', US_FUTURES),
    eod_release_time: '17:30:00',
    eod_cutoff_time: '16:00:00',
  }),
  exchange('CBOTM', 'CBOT Mini-sized', {
    ...common('B', '10', 'CBOT,XCBT', US_FUTURES),
    eod_release_time: '17:30:00',
    eod_cutoff_time: '16:00:00',
  }),
  exchange('NYMEX', 'New York Mercantile Exchange', {
    ...common('J', '10', 'NYMEX,XNYM', US_FUTURES),
    eod_release_time: '17:30:00',
    eod_cutoff_time: '16:00:00',
  }),
  exchange('COMEX', 'Commodity Exchange Inc', {
    ...common('K', '10', 'COMEX,XCEC', US_FUTURES),
    eod_release_time: '17:30:00',
    eod_cutoff_time: '16:00:00',
  }),
  exchange('NYSE', 'New York Stock Exchange', {
    ...common('N', '15', 'NYSE,XNYS', US_EQUITIES),
    feewaiver: 'yes',
    freedelayed: 'yes',
    eod_release_time: '16:30:00',
    eod_cutoff_time: '16:00:00',
  }),
  exchange('NASDAQ', 'Nasdaq Stock Market', {
    ...common('Q', '15', 'NASDAQ,XNAS', US_EQUITIES),
    feewaiver: 'yes',
    freedelayed: 'yes',
    eod_release_time: '16:30:00',
    eod_cutoff_time: '16:00:00',
  }),
  exchange('CBOE', 'Cboe Global Indices', {
    ...common('C', '15', 'CBOE,XCBO', {
      timezone_local: 'America/Chicago',
      timezone_feed: 'America/Chicago',
    }),
    eod_release_time: '16:00:00',
    eod_cutoff_time: '15:15:00',
  }),
  exchange('ICEUS', 'ICE Futures U.S.', {
    ...common('I', '10', 'ICEUS,IFUS', {
      timezone_local: 'America/New_York',
      timezone_feed: 'America/Chicago',
    }),
    eod_release_time: '18:00:00',
    eod_cutoff_time: '17:00:00',
  }),
  exchange('ICEEU', 'ICE Futures Europe', {
    ...common('E', '10', 'ICEEU,IFEU', { timezone_local: 'Europe/London', timezone_feed: 'America/Chicago' }),
    region: 'EU',
    eod_release_time: '19:00:00',
    eod_cutoff_time: '18:00:00',
  }),
  exchange('EUREX', 'Eurex Deutschland & Zürich', {
    ...common('X', '15', 'EUREX,XEUR', { timezone_local: 'Europe/Berlin', timezone_feed: 'Europe/Berlin' }),
    region: 'EU',
    eod_release_time: '22:30:00',
    eod_cutoff_time: '22:00:00',
  }),
  exchange('FOREX', 'Foreign Exchange Spot', {
    ...common('F', '0', 'FX', US_FUTURES),
    freedelayed: 'yes',
    eod_release_time: '16:30:00',
    eod_cutoff_time: '16:00:00',
  }),
  exchange('OTC PINK', 'OTC Pink Open Market', {
    feedcode: 'P',
    delay: '',
    codes: '',
    feewaiver: 'no',
    freedelayed: 'yes',
    timezone_local: 'America/New_York',
  }),
  exchange('BIG', 'Synthetic Large Exchange', {
    ...common('Z', '0', 'BIG,XBIG', US_FUTURES),
    eod_release_time: '17:30:00',
    eod_cutoff_time: '16:00:00',
  }),
];

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The XML document of the configured shape. The documented prolog declares `exchangesEncoding` (the
 * bytes must then be encoded so); the legacy one declares none, whatever the bytes are.
 */
export function exchangesXml(
  options: Pick<EmulatorOptions, 'exchangesShape' | 'exchangesEncoding' | 'exchangesCodePrefix'>,
): string {
  const legacy = options.exchangesShape === 'legacy';
  const lines = [
    legacy
      ? '<?xml version="1.0"?>'
      : `<?xml version="1.0" encoding="${options.exchangesEncoding.toUpperCase()}"?>`,
    '<exchanges>',
  ];
  const elements = legacy
    ? LEGACY_EXCHANGES.map((entry) =>
        entry.map(([name, value]) => [name === 'code' ? `${options.exchangesCodePrefix}code` : name, value]),
      )
    : EXCHANGES.map((entry) =>
        Object.entries({ id: entry.id, description: entry.description, ...entry.attributes }),
      );
  for (const attributes of elements) {
    const text = attributes.map(([name, value]) => `${name}="${escapeXml(value ?? '')}"`).join(' ');
    lines.push(`  <exchange ${text}/>`);
  }
  lines.push('</exchanges>', '');
  return lines.join('\n');
}
