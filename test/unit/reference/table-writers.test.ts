import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseInstrumentArray } from '../../../src/core/reference/instrument-stream.js';
import { writeCsv, writeJson, writeNdjson, writeTables } from '../../../src/core/reference/table-writers.js';
import { fixtureStream, fixtureText, TextSink } from './helpers.js';

const BIG_IDS = ['9007199254740993', '9223372036854775807'];
const fixtureEntries = () => parseInstrumentArray(fixtureStream('instruments.json'));

describe('writeNdjson', () => {
  it('writes each entry exactly as the file wrote it, whitespace aside', async () => {
    const sink = new TextSink();
    expect(await writeNdjson(fixtureEntries(), sink)).toBe(5);
    const lines = sink.text.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toContain('"marketId":9223372036854775807,');
    expect(lines[4]).toContain('"underlyingMarketId":9007199254740993,');
    expect(lines[3]).toContain('"marketId":"9007199254740993"');
    expect(lines[3]).toContain('"minimumPriceIncrement":0.0099999998,"contractPointValue":1.0,');
    expect(lines[3]).toContain('"weight":1E-3');
    // The fixture's own bytes, without the layout whitespace between tokens, are exactly the lines.
    const compact = fixtureText('instruments.json').replace(/\n\s*/g, '');
    expect(`[${lines.join(',')}]`).toBe(compact);
  });
});

describe('writeCsv', () => {
  it('writes the instruments table with a header and exact ids', async () => {
    const sink = new TextSink();
    await writeCsv(fixtureEntries(), sink);
    const [header, ...rows] = sink.text.split('\n');
    expect(header).toBe(
      'market_id,symbol,exchange_code,instrument_type,description,currency_code,cfi_code,isin,vendor_id,' +
        'vendor_exchange,vendor_exchange_code,vendor_base_code,exchange_id,instrument_group,state,tick_size,' +
        'point_value,price_denominator,quantity_denominator,time_zone,first_trade_date,last_trade_date,' +
        'expiration,maturity,underlying,underlying_market_id,option_strike,option_type,option_style,spread_code,' +
        'contract_size,created_at,updated_at,extra',
    );
    for (const id of BIG_IDS) expect(sink.text).toContain(`\n${id},`);
    expect(rows[0]).toBe(
      '4917813436427451121,ESM5,XCME,FUTURE,E-Mini S&P 500,USD,FXXXXX,,VENDOR,CME,M,A,1,ES,,0.25,50,100,1,' +
        'America/Chicago,2024-03-15,2025-06-20,2025-06-20,2025-06,ES,,,,,,50,2024-03-15T00:36:40.000000000Z,' +
        '2025-03-13T21:06:40.000000000Z,"{""supportBookTypes"":[""PRICE_LEVEL_DEPTH""],""bookDepth"":10,' +
        '""calendar"":{""events"":[{""type"":""FIRST_TRADE_DATE"",""date"":""1710460800000""},{""type"":' +
        '""LAST_TRADE_DATE"",""date"":""1750377600000""}]},""channel"":1,""priceFormat"":{""denominator"":100,' +
        '""subDenominator"":1},""exchangeSendsVolume"":true,""exchangeMetadata"":{""securityId"":""118"",' +
        '""channelId"":""310"",""sbeId"":1}}"',
    );
    // The equity's description holds a quote, a comma and a newline: one quoted field.
    expect(sink.text).toContain('"Acme Corp, ""Class A""\nCommon"');
    expect(sink.text).toContain(',0.0099999998,1.0,10000,1,');
  });

  it.each([
    [
      'symbols',
      'market_id,vendor,symbol,long_symbol\n4917813436427451121,VENDOR,ESM25,ESM2025\n4917813436427451121,exchange,ESM5,\n' +
        '9007199254740993,VENDOR,ACME,\n9007199254740993,primarylistingmarketparticipantid,Q,\n',
    ],
    [
      'spread_legs',
      'market_id,leg_index,leg_market_id,ratio,symbol\n4917813436427470003,0,4917813436427451121,1,ESM5\n' +
        '4917813436427470003,1,4917813436427451122,-1,ESU5\n',
    ],
  ] as const)('writes the %s table', async (table, expected) => {
    const sink = new TextSink();
    expect(await writeTables('csv', fixtureEntries(), sink, { table })).toBe(5);
    expect(sink.text).toBe(expected);
  });
});

describe('writeJson', () => {
  it('writes an array of instruments with nested symbols and legs, ids exact', async () => {
    const sink = new TextSink();
    await writeJson(fixtureEntries(), sink);
    expect(sink.text.startsWith('[\n{"market_id":"4917813436427451121","symbol":"ESM5",')).toBe(true);
    expect(sink.text.endsWith('}\n]\n')).toBe(true);
    for (const id of BIG_IDS) expect(sink.text).toContain(`{"market_id":"${id}",`);
    expect(sink.text).toContain('"underlying_market_id":"9007199254740993"');
    expect(sink.text).toContain('"tick_size":0.0099999998,"point_value":1.0,');
    const parsed = JSON.parse(sink.text) as Record<string, unknown>[];
    expect(parsed).toHaveLength(5);
    expect(parsed[2]?.['spread_legs']).toEqual([
      { leg_index: 0, leg_market_id: '4917813436427451121', ratio: 1, symbol: 'ESM5' },
      { leg_index: 1, leg_market_id: '4917813436427451122', ratio: -1, symbol: 'ESU5' },
    ]);
    expect(parsed[0]?.['symbols']).toEqual([
      { vendor: 'VENDOR', symbol: 'ESM25', long_symbol: 'ESM2025' },
      { vendor: 'exchange', symbol: 'ESM5', long_symbol: null },
    ]);
    expect(parsed[1]?.['extra']).toEqual({ optionStrikePriceFormat: { denominator: 8, subDenominator: 1 } });
    expect(parsed[1]?.['option_strike']).toBe('470');
  });

  it('writes [] for no entries', async () => {
    const sink = new TextSink();
    await writeJson(parseInstrumentArray(Readable.from(['[]'])), sink);
    expect(sink.text).toBe('[]\n');
  });
});

describe('backpressure', () => {
  it('waits for drain and fails with MDGET_IO when the destination closes', async () => {
    let writes = 0;
    const stuck = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, callback) {
        writes += 1;
        // Never calls back: the writer must wait for 'drain' instead of piling up chunks.
        setTimeout(() => stuck.destroy(), 20);
        void callback;
      },
    });
    async function* many() {
      for (let i = 0; i < 5000; i++) yield { marketId: String(i), description: 'x'.repeat(100) };
    }
    await expect(writeNdjson(many(), stuck)).rejects.toMatchObject({ code: 'MDGET_IO' });
    expect(writes).toBe(1);
  });
});

describe('batches', () => {
  it('encodes every line whole across batch boundaries: multi-byte text, lines longer than a batch', async () => {
    // A batch is 256 KiB: 90,000 units may take 270,000 bytes, more than a whole batch.
    const texts = ['é', '😀', 'x', '€'.repeat(30_000), 'y'.repeat(90_000), '\ud800'];
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      marketId: String(i),
      description: (texts[i % texts.length] as string).repeat(i % 5 === 0 ? 3 : 1),
    }));
    async function* all() {
      yield* entries;
    }
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    expect(await writeNdjson(all(), sink)).toBe(3000);
    const expected = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    expect(Buffer.concat(chunks).equals(Buffer.from(expected))).toBe(true);
    expect(chunks.length).toBeGreaterThan(10);
  });
});
