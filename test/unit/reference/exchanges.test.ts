import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type Exchange,
  findExchanges,
  parseExchangesXml,
  resolveExchange,
} from '../../../src/core/reference/exchanges.js';
import { exchangesTo } from '../../../src/core/reference/exchanges-format.js';
import { fixturePath, fixtureText } from './helpers.js';

const list = parseExchangesXml(fixtureText('exchanges.xml'));
const byId = (id: string) => list.find((exchange) => exchange.id === id);

describe('parseExchangesXml', () => {
  it('types every attribute of the documented sample', () => {
    expect(byId('CME')).toEqual({
      id: 'CME',
      feedcode: 'M',
      delay: 10,
      description: 'CME Globex',
      dataFrequency: 1,
      snapshotFrequency: 5,
      codes: ['CME', 'XCME'],
      feeWaiver: false,
      freeDelayed: 'no',
      timezoneLocal: 'America/Chicago',
      timezoneFeed: 'America/Chicago',
      eodReleaseTime: '17:30:00',
      eodCutoffTime: '16:00:00',
      extra: {},
    } satisfies Exchange);
  });

  it('finds exchanges at any depth, in document order, skipping those without an id', () => {
    expect(list.map((exchange) => exchange.id)).toEqual(['CME', 'CBOT', 'NYMEX', 'NASDAQ', 'EUREX', 'ICEUS']);
  });

  it('trims codes, drops empty ones, and reads an empty list as []', () => {
    expect(byId('CBOT')?.codes).toEqual(['CBOT', 'XCBT']);
    expect(byId('NYMEX')?.codes).toEqual([]);
    expect(byId('NASDAQ')?.codes).toBeUndefined();
  });

  it('maps brand-prefixed feedcode and timezone_feed names and keeps unknown attributes', () => {
    expect(byId('NYMEX')).toMatchObject({ feedcode: 'J', timezoneFeed: 'America/Chicago', feeWaiver: true });
    expect(byId('ICEUS')?.feedcode).toBe('I');
    expect(byId('NYMEX')?.extra).toEqual({ region: 'US', freedelayed: 'maybe' });
  });

  it('leaves empty values undefined and keeps unparsable ones in extra', () => {
    expect(byId('NYMEX')?.delay).toBeUndefined();
    expect(byId('NYMEX')?.freeDelayed).toBeUndefined();
    expect(byId('EUREX')?.delay).toBeUndefined();
    expect(byId('EUREX')?.extra).toEqual({ delay: 'soon' });
  });

  it('decodes entities', () => {
    expect(byId('NASDAQ')?.description).toBe('Nasdaq Stock Market & Options');
  });

  it('honours an ISO-8859-1 prolog when given bytes', () => {
    const latin1 = parseExchangesXml(readFileSync(fixturePath('exchanges-latin1.xml')));
    expect(latin1.map((exchange) => exchange.description)).toEqual(['Bourse de Montréal', 'Börse Frankfurt']);
  });

  it('reads UTF-8 bytes without a prolog encoding', () => {
    const xml = '<exchanges><exchange id="MX" description="Montréal"/></exchanges>';
    expect(parseExchangesXml(Buffer.from(xml))[0]?.description).toBe('Montréal');
  });

  it.each([
    ['an in-band error', 'Error: invalid username or password'],
    ['an HTML page', '<html><body><p>maintenance</body></html>'],
    ['truncated XML', '<exchanges><exchange id="CME"'],
  ])('rejects %s as MDGET_SERVICE', (_name, body) => {
    expect(() => parseExchangesXml(body)).toThrow(expect.objectContaining({ code: 'MDGET_SERVICE' }));
  });

  it('returns [] for a list without exchanges', () => {
    expect(parseExchangesXml('<?xml version="1.0"?><exchanges/>')).toEqual([]);
  });
});

describe('findExchanges', () => {
  it.each([
    ['cme', ['CME']],
    ['globex', ['CME', 'CBOT', 'NYMEX']],
    ['NASDAQ STOCK', ['NASDAQ']],
    ['cbot globex', ['CBOT']],
    ['u.s.', ['ICEUS']],
    ['nothing like it', []],
    ['', ['CME', 'CBOT', 'NYMEX', 'NASDAQ', 'EUREX', 'ICEUS']],
  ])('%s → %o', (text, ids) => expect(findExchanges(list, text).map((exchange) => exchange.id)).toEqual(ids));

  it('lists every id or description containing the text, exact ids included (exchanges --find)', () => {
    const withCmex = [...list, { id: 'CMEX', description: 'another', extra: {} }];
    expect(findExchanges(withCmex, 'Cme').map((exchange) => exchange.id)).toEqual(['CME', 'CMEX']);
  });
});

describe('the legacy list shape (the lists of 2012 and 2013)', () => {
  const legacy = parseExchangesXml(readFileSync(fixturePath('exchanges-legacy.xml')));

  it('reads <prefix>code as feedcode, keeps freedelayed eod, and takes every attribute as optional', () => {
    expect(legacy.map((e) => [e.id, e.feedcode, e.freeDelayed, e.feeWaiver])).toEqual([
      ['CBOT', 'B', 'no', false],
      ['CBOTM', 'B', 'eod', undefined],
      ['LSE-IOB_2', '$l9', 'yes', true],
      ['BARE', undefined, undefined, undefined],
    ]);
    expect(legacy[1]).toMatchObject({ description: 'CBOT Mini-sized & Micro', codes: ['CBOTM', 'X CBT'] });
    expect(legacy.every((e) => Object.keys(e.extra).length === 0)).toBe(true);
    expect(exchangesTo('csv', legacy).split('\n')[2]).toBe(
      'CBOTM,B,10,CBOT Mini-sized & Micro,1,,"CBOTM,X CBT",,eod,,,,',
    );
  });

  it('--find cbot lists CBOT and CBOTM; resolving "cbot" for instruments keeps the exact id', () => {
    expect(findExchanges(legacy, 'cbot').map((e) => e.id)).toEqual(['CBOT', 'CBOTM']);
    expect(resolveExchange(legacy, 'cbot').id).toBe('CBOT');
    expect(resolveExchange(legacy, 'mini-sized').id).toBe('CBOTM');
  });
});

describe('resolveExchange', () => {
  it('prefers an exact id over substring matches', () => {
    const withCmex = [...list, { id: 'CMEX', description: 'another', extra: {} }];
    expect(resolveExchange(withCmex, 'Cme').id).toBe('CME');
  });

  it('returns the single match', () => {
    expect(resolveExchange(list, 'eurex').id).toBe('EUREX');
  });

  it('lists the candidates on one line when ambiguous', () => {
    expect(() => resolveExchange(list, 'globex')).toThrow(
      expect.objectContaining({
        code: 'MDGET_USAGE',
        message:
          '"globex" matches 3 exchanges: CME (CME Globex), CBOT (CBOT Globex), NYMEX (NYMEX Globex); give an exact id',
      }),
    );
  });

  it('is a usage error when nothing matches', () => {
    expect(() => resolveExchange(list, 'LSE')).toThrow(
      expect.objectContaining({
        code: 'MDGET_USAGE',
        message: expect.stringMatching(/^no exchange matches "LSE"/),
      }),
    );
  });
});

describe('exchangesTo', () => {
  const two = list.filter((exchange) => ['CME', 'NASDAQ'].includes(exchange.id));

  it('aligns a table for the terminal', () => {
    expect(exchangesTo('table', two)).toBe(
      [
        'ID      DESCRIPTION                    FEED  DELAY  CODES     TIMEZONE',
        'CME     CME Globex                     M     10     CME,XCME  America/Chicago',
        'NASDAQ  Nasdaq Stock Market & Options  Q     15               America/New_York',
        '',
      ].join('\n'),
    );
  });

  it('writes CSV with the wire names as header and quotes lists', () => {
    expect(exchangesTo('csv', two).split('\n')).toEqual([
      'id,feedcode,delay,description,data_frequency,snapshot_frequency,codes,feewaiver,freedelayed,timezone_local,timezone_feed,eod_release_time,eod_cutoff_time',
      'CME,M,10,CME Globex,1,5,"CME,XCME",false,no,America/Chicago,America/Chicago,17:30:00,16:00:00',
      'NASDAQ,Q,15,Nasdaq Stock Market & Options,,,,,yes,America/New_York,,16:30:00,',
      '',
    ]);
  });

  it('writes json and ndjson that parse back to the typed list', () => {
    expect(JSON.parse(exchangesTo('json', list))).toEqual(JSON.parse(JSON.stringify(list)));
    const lines = exchangesTo('ndjson', two).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(['CME', 'NASDAQ']);
  });
});
