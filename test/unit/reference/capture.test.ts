import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  captureEntries,
  checkCapture,
  parseCapture,
  readCapture,
} from '../../../src/core/reference/capture.js';
import { numberText } from '../../../src/core/reference/lossless-json.js';
import { collect, fixtureStream } from './helpers.js';

const fromText = (text: string) => () => Readable.from([Buffer.from(text)]);
const check = (text: string) => checkCapture(parseCapture(fromText(text)()));
const response = (body: object) => JSON.stringify({ instrumentResponse: body });
const definition = (marketId: string) =>
  JSON.stringify({ instrumentDefinition: { marketId, instrumentType: 'FUTURE' } });
const ok = { result: 'SUCCESS' };

describe('parseCapture', () => {
  it('reads envelopes line by line, blank lines and other kinds included', async () => {
    const messages = await collect(parseCapture(fixtureStream('capture.ndjson')));
    expect(messages.map((message) => [message.ordinal, message.kind])).toEqual([
      [1, 'instrumentResponse'],
      [2, 'instrumentDefinition'],
      [3, 'other'],
      [4, 'instrumentDefinition'],
      [5, 'instrumentDefinition'],
      [6, 'instrumentResponse'],
      [7, 'instrumentDefinition'],
      [8, 'other'],
    ]);
    expect(numberText(messages[3]?.body['marketId'])).toBe('9223372036854775807');
    expect(numberText(messages[5]?.body['correlationId'])).toBe('9007199254740993');
  });

  it.each([
    ['malformed JSON', '{"instrumentResponse":', /^capture: malformed JSON/],
    ['a non-object line', '[1]', 'capture: value 1 is an array, not a JSON object'],
    [
      'a non-object definition',
      '{"instrumentDefinition":7}',
      'capture: message 1: instrumentDefinition is not a JSON object',
    ],
  ])('rejects %s as MDGET_SERVICE', async (_name, text, message) => {
    await expect(collect(parseCapture(fromText(text)()))).rejects.toMatchObject({
      code: 'MDGET_SERVICE',
      message,
    });
  });
});

describe('checkCapture', () => {
  it('passes the fixture, warning once about the repeated marketId', async () => {
    const warnings: string[] = [];
    const report = await checkCapture(parseCapture(fixtureStream('capture.ndjson')), {
      onWarning: (message) => warnings.push(message),
    });
    expect(report.groups).toEqual([
      { ordinal: 1, exchange: 'CME', expected: 3, actual: 3, embedded: false },
      { ordinal: 6, exchange: 'NASDAQ', symbol: 'ACME', expected: 1, actual: 1, embedded: true },
    ]);
    expect(report.definitions).toBe(4);
    expect([...report.superseded]).toEqual([2]);
    expect(warnings).toEqual([
      'capture: marketId 4917813436427451121 repeated after the exchange CME response (messages 2 and 5); the last definition wins',
    ]);
  });

  it('names the exchange, expected and actual counts on a mismatch', async () => {
    await expect(checkCapture(parseCapture(fixtureStream('capture-mismatch.ndjson')))).rejects.toMatchObject({
      code: 'MDGET_SERVICE',
      message: 'capture: exchange CME announced 3 definitions, got 2',
    });
  });

  it('reports a failed status with its result and message', async () => {
    await expect(checkCapture(parseCapture(fixtureStream('capture-status.ndjson')))).rejects.toMatchObject({
      code: 'MDGET_SERVICE',
      message: 'capture: exchange FOO answered with status INVALID_EXCHANGE: unknown exchange FOO',
    });
  });

  it.each([
    [
      'a missing status',
      [response({ exchange: 'CME', numberOfDefinitions: 0 })],
      'capture: exchange CME answered without a status result',
    ],
    [
      'a definition before any response',
      [definition('1'), response({ status: ok, exchange: 'CME', numberOfDefinitions: 1 })],
      'capture: instrumentDefinition (message 1) comes before any instrumentResponse',
    ],
    [
      'more definitions than announced',
      [response({ status: ok, symbol: 'ESM5', numberOfDefinitions: 1 }), definition('1'), definition('2')],
      'capture: symbol ESM5 announced 1 definitions, got 2',
    ],
    [
      'a missing count with definitions',
      [response({ status: ok, exchange: 'CME' }), definition('1')],
      'capture: exchange CME announced 0 definitions, got 1',
    ],
    [
      'a mismatch in the last group',
      [
        response({ status: ok, exchange: 'A', numberOfDefinitions: 1 }),
        definition('1'),
        response({ status: ok, exchange: 'B', numberOfDefinitions: 2 }),
        definition('2'),
      ],
      'capture: exchange B announced 2 definitions, got 1',
    ],
  ])('rejects %s', async (_name, lines, message) => {
    await expect(check(lines.join('\n'))).rejects.toMatchObject({ code: 'MDGET_SERVICE', message });
  });

  it('does not count an embedded definition', async () => {
    const lines = [
      response({
        status: ok,
        exchange: 'CME',
        numberOfDefinitions: 1,
        instrumentDefinition: { marketId: '1' },
      }),
      definition('2'),
    ];
    const report = await check(lines.join('\n'));
    expect(report.groups[0]).toMatchObject({ expected: 1, actual: 1, embedded: true });
    expect(report.definitions).toBe(2);
  });
});

describe('readCapture', () => {
  it('yields the checked definitions in order, the last of a repeated marketId winning', async () => {
    const entries = await collect(readCapture(() => fixtureStream('capture.ndjson')));
    expect(entries.map((entry) => [numberText(entry['marketId']), entry['description'] ?? null])).toEqual([
      ['9223372036854775807', null],
      ['4917813436427451121', 'E-Mini S&P 500'],
      ['9007199254740993', null],
      ['9007199254740995', null],
    ]);
  });

  it('yields nothing at all when a later group fails', async () => {
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const entry of readCapture(() => fixtureStream('capture-mismatch.ndjson')))
          seen.push(entry);
      })(),
    ).rejects.toMatchObject({ code: 'MDGET_SERVICE' });
    expect(seen).toEqual([]);
  });

  it('notices a source that changed between the two readings', async () => {
    const report = await check(
      [response({ status: ok, exchange: 'CME', numberOfDefinitions: 1 }), definition('1')].join('\n'),
    );
    const changed = [
      response({ status: ok, exchange: 'CME', numberOfDefinitions: 2 }),
      definition('1'),
      definition('2'),
    ];
    await expect(
      collect(captureEntries(parseCapture(fromText(changed.join('\n'))()), report)),
    ).rejects.toMatchObject({
      code: 'MDGET_IO',
    });
  });
});
