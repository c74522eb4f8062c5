import { describe, expect, it } from 'vitest';
import { outputColumns, RECORD_SHAPES, type RecordKind } from '../../src/core/model/record-shapes.js';
import { jsonRowsFor, WasmJsonRows } from '../../src/core/pipeline/json-rows.js';
import { recordToJson } from '../../src/core/pipeline/output-state.js';

const columnsOf = (kind: RecordKind, trend = false, contract = false) =>
  outputColumns(kind, { trend, contract }) as readonly string[];

/** ndjson of `text` through a converter for `columns`, with recordToJson (of `kind`) as its fallback. */
function ndjson(text: string | Buffer, columns: readonly string[] | undefined, kind: RecordKind = 'ticks') {
  const lines = typeof text === 'string' ? Buffer.from(text) : text;
  return new WasmJsonRows(columns).convert(lines, 'ndjson', (line) =>
    recordToJson(line, columns, RECORD_SHAPES[kind]),
  );
}

const TICKS = columnsOf('ticks');

describe('JsonRows on each kind of record', () => {
  it.each([
    [
      'ticks',
      TICKS,
      'ESM25,2025-03-13 17:00:00.021,14,G,5612.75,7',
      '{"symbol":"ESM25","time":"2025-03-13 17:00:00.021","trading_day":14,"session_code":"G","price":5612.75,"size":7}',
    ],
    [
      'ticks, no size',
      TICKS,
      'AAPL,2025-03-14 09:30:00.000,14,,213.49,',
      '{"symbol":"AAPL","time":"2025-03-14 09:30:00.000","trading_day":14,"session_code":null,"price":213.49,"size":null}',
    ],
    [
      'ticks, trend',
      columnsOf('ticks', true),
      'ESM25,2025-03-13 17:00:00.021,14,G,-0.5,12.25',
      '{"symbol":"ESM25","time":"2025-03-13 17:00:00.021","trading_day":14,"session_code":"G","support":-0.5,"resistance":12.25}',
    ],
    [
      'minutes',
      columnsOf('minutes'),
      'AAPL,2025-03-14 09:31,14,213.5,214,213.25,213.75,1200',
      '{"symbol":"AAPL","time":"2025-03-14 09:31","trading_day":14,"open":213.5,"high":214,"low":213.25,"close":213.75,"volume":1200}',
    ],
    [
      'minutes with a contract column, none given',
      columnsOf('minutes', false, true),
      'ES*1,,2025-03-13 09:00,13,1,2,0,1,0',
      '{"symbol":"ES*1","contract":null,"time":"2025-03-13 09:00","trading_day":13,"open":1,"high":2,"low":0,"close":1,"volume":0}',
    ],
    [
      'minutes, trend',
      columnsOf('minutes', true),
      'AAPL,2025-03-14 09:31,210,215.5',
      '{"symbol":"AAPL","time":"2025-03-14 09:31","support":210,"resistance":215.5}',
    ],
    [
      'nearby minutes',
      columnsOf('nearbyMinutes'),
      'ES*1,ESH25,2025-03-13 09:00,13,5600,5601,5599.5,5600.25,321',
      '{"symbol":"ES*1","contract":"ESH25","time":"2025-03-13 09:00","trading_day":13,"open":5600,"high":5601,"low":5599.5,"close":5600.25,"volume":321}',
    ],
    [
      'EOD equity: no open interest',
      columnsOf('eod'),
      'MSFT,2025-03-10,380.5,385,379,384.25,20000000,',
      '{"symbol":"MSFT","date":"2025-03-10","open":380.5,"high":385,"low":379,"close":384.25,"volume":20000000,"open_interest":null}',
    ],
    [
      'EOD future',
      columnsOf('eod'),
      'ZCN25,2025-03-10,450.25,455,449,452.5,120000,350000',
      '{"symbol":"ZCN25","date":"2025-03-10","open":450.25,"high":455,"low":449,"close":452.5,"volume":120000,"open_interest":350000}',
    ],
    [
      'events: a numeric value stays text',
      columnsOf('events'),
      'AAPL,2024-11-08,Dividend,0.25',
      '{"symbol":"AAPL","date":"2024-11-08","event_type":"Dividend","value":"0.25"}',
    ],
    [
      'date range',
      columnsOf('dateRange'),
      'AAPL,2000-01-03,2025-03-14',
      '{"symbol":"AAPL","first":"2000-01-03","last":"2025-03-14"}',
    ],
    [
      'futures options',
      columnsOf('futuresOptions'),
      'OZCN25C450,ZCN25,C,450,2025-06-20,2025-03-10,12.5,13,12,12.75,100,2000',
      '{"symbol":"OZCN25C450","underlying":"ZCN25","type":"C","strike":450,"expiration":"2025-06-20","date":"2025-03-10","open":12.5,"high":13,"low":12,"close":12.75,"volume":100,"open_interest":2000}',
    ],
  ])('%s', (_name, columns, line, expected) => {
    const result = ndjson(`${line}\n`, columns);
    expect(result.bytes.toString()).toBe(`${expected}\n`);
    expect(result.records).toBe(1);
    expect(expected).toBe(recordToJson(line, columns, RECORD_SHAPES.ticks));
  });
});

describe('JsonRows field by field', () => {
  const price = (field: string) => {
    const out = ndjson(`ESM25,2025-03-13 17:00:00.021,14,G,${field},7\n`, TICKS).bytes.toString();
    return out.slice(out.indexOf('"price":') + 8, out.indexOf(',"size"'));
  };

  it.each([
    ['0', '0'],
    ['-0', '-0'],
    ['7', '7'],
    ['-12.5', '-12.5'],
    ['0.000001', '0.000001'],
    ['12345678901234567890.123456789', '12345678901234567890.123456789'],
    ['', 'null'],
    ['01', '"01"'],
    ['1.', '"1."'],
    ['.5', '".5"'],
    ['-', '"-"'],
    ['--1', '"--1"'],
    ['1.2.3', '"1.2.3"'],
    ['1-2', '"1-2"'],
    ['+1', '"+1"'],
    ['1e5', '"1e5"'],
    [' 1', '" 1"'],
    ['NaN', '"NaN"'],
    ['0123456789012345678', '"0123456789012345678"'],
    ['a "quote"', '"a \\"quote\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['tab\there', '"tab\\there"'],
    ['\u0001', '"\\u0001"'],
    ['é and ☃', '"é and ☃"'],
    [
      'a long field of text, well past sixteen bytes'.replaceAll(',', ';'),
      '"a long field of text; well past sixteen bytes"',
    ],
  ])('price %j → %s', (field, expected) => {
    expect(price(field)).toBe(expected);
  });

  it('bytes that are not UTF-8 come out as recordToJson decodes them', () => {
    const line = Buffer.concat([
      Buffer.from('ESM25,2025-03-13 17:00:00.021,14,'),
      Buffer.from([0xff]),
      Buffer.from(',1,2\n'),
    ]);
    expect(ndjson(line, TICKS).bytes.toString()).toContain('"session_code":"\ufffd"');
  });

  it('lines with another field count, an empty line and a last line without LF go through the fallback', () => {
    const lines = [
      'ESM25,2025-03-13 17:00:00.021,14,G,5612.75,7',
      'ESM25,2025-03-13 17:00:00.021,14,G,5612.75',
      'ESM25,2025-03-13 17:00:00.021,14,G,5612.75,7,9',
      '',
      'ESM25,2025-03-13 17:00:00.022,14,G,5612.5,1',
      'tail,1',
    ];
    const expected = lines
      .filter((line) => line !== '')
      .map((line) => `${recordToJson(line, TICKS, RECORD_SHAPES.ticks)}\n`)
      .join('');
    expect(ndjson(lines.join('\n'), TICKS)).toEqual({ bytes: Buffer.from(expected), records: 5 });
    expect(expected).toContain('{"field1":"tail","field2":1}');
  });

  it('without columns (or none), every line takes recordToJson’s keys', () => {
    const lines = 'AAPL,2000-01-03,2025-03-14\nx,y\n';
    expect(ndjson(lines, undefined, 'dateRange').bytes.toString()).toBe(
      '{"symbol":"AAPL","first":"2000-01-03","last":"2025-03-14"}\n{"field1":"x","field2":"y"}\n',
    );
    expect(ndjson(lines, [], 'dateRange').bytes.toString()).toBe(
      '{"symbol":"AAPL","first":"2000-01-03","last":"2025-03-14"}\n{"field1":"x","field2":"y"}\n',
    );
  });

  it('json framing: every item starts with ",\\n" and none ends the array', () => {
    const lines = Buffer.from(
      'ESM25,2025-03-13 17:00:00.021,14,G,1,2\nESM25,2025-03-13 17:00:00.021,14,G,3,\n',
    );
    const result = new WasmJsonRows(TICKS).convert(lines, 'json', () => 'unused');
    expect(result.bytes.toString()).toBe(
      ',\n{"symbol":"ESM25","time":"2025-03-13 17:00:00.021","trading_day":14,"session_code":"G","price":1,"size":2}' +
        ',\n{"symbol":"ESM25","time":"2025-03-13 17:00:00.021","trading_day":14,"session_code":"G","price":3,"size":null}',
    );
  });

  it('output longer than the first guess of room, and no lines at all', () => {
    const line = `${'9,'.repeat(11)}9\n`;
    const columns = columnsOf('futuresOptions');
    const lines = line.repeat(5000);
    const expected = `${recordToJson(line.trim(), columns, RECORD_SHAPES.futuresOptions)}\n`.repeat(5000);
    const result = ndjson(lines, columns, 'futuresOptions');
    expect([result.bytes.toString(), result.records]).toEqual([expected, 5000]);
    expect(ndjson('', TICKS)).toEqual({ bytes: Buffer.alloc(0), records: 0 });
  });

  it('one converter per column list', () => {
    expect(jsonRowsFor(TICKS)).toBe(jsonRowsFor(TICKS));
    expect(jsonRowsFor(TICKS)).not.toBe(jsonRowsFor([...TICKS]));
  });
});

describe('JsonRows against recordToJson, on random lines', () => {
  const random = (seed: number) => () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  // what numbers and times are made of; one line in ten has bytes to escape, non-ASCII or not UTF-8
  const plain = ['0', '1', '5', '9', '-', '.', '.', ',', 'a', ' ', ':'].map((text) => Buffer.from(text));
  const odd = [...plain, ...['"', '\\', '\t', 'é'].map((text) => Buffer.from(text)), Buffer.from([0xff])];

  it.each([
    ['ticks', columnsOf('ticks')],
    ['minutes', columnsOf('minutes', false, true)],
    ['eod', columnsOf('eod')],
    ['events', columnsOf('events')],
    ['futuresOptions', columnsOf('futuresOptions')],
  ] as const)('%s', (kind, columns) => {
    const next = random(columns.length);
    const pick = (alphabet: Buffer[]) => alphabet[Math.floor(next() * alphabet.length)]!;
    const field = (alphabet: Buffer[]) =>
      Buffer.concat(Array.from({ length: Math.floor(next() * next() * 24) }, () => pick(alphabet)));
    const comma = Buffer.from(',');
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 20) }, () => {
        // most lines have the columns' field count, so the fast path sees them
        const count = next() < 0.8 ? columns.length : 1 + Math.floor(next() * (columns.length + 2));
        const alphabet = next() < 0.1 ? odd : plain;
        const fields = Array.from({ length: count }, () => field(alphabet));
        return Buffer.concat([...fields.flatMap((f, i) => (i === 0 ? [f] : [comma, f])), Buffer.from('\n')]);
      });
      const bytes = Buffer.concat(lines);
      const expected = bytes
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => `${recordToJson(line, columns, RECORD_SHAPES[kind])}\n`)
        .join('');
      const result = ndjson(bytes, columns, kind);
      expect(result.bytes.toString(), JSON.stringify(bytes.toString('latin1'))).toBe(expected);
    }
  });
});
