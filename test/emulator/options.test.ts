import { describe, expect, it } from 'vitest';
import { defaultEmulatorOptions, EMULATOR_HELP, parseEmulatorOption } from '../../src/emulator/index.js';
import { withEmulator } from '../helpers/with-emulator.js';

describe('emulator options', () => {
  it('has the documented defaults, every option listed', () => {
    const defaults = defaultEmulatorOptions();
    expect(defaults).toStrictEqual({
      host: '127.0.0.1',
      port: 0,
      username: 'demo',
      password: 'demo',
      lineEnding: 'crlf',
      finalNewline: true,
      strayLineEnd: false,
      errorStatus: 200,
      unknownSymbol: 'error',
      gzip: 'auto',
      ignoreStart: false,
      contentType: 'text/plain; charset=utf-8',
      transfer: 'chunked',
      rowCap: undefined,
      tickLimit: 'second',
      rateLimit: undefined,
      retryAfter: 1,
      latency: 0,
      maxQueryLength: 2048,
      tickDay: 'calendar',
      barLabel: 'start',
      barAlign: 'clock',
      formTHours: '04:00-20:00',
      periodDate: 'first',
      eodEnd: 'inclusive',
      splitNotation: '4-1',
      dateRangeShape: 'symbol-first-last',
      futuresOptionsShape: 'standard',
      exchangesPath: 'exchanges',
      exchangesEncoding: 'utf-8',
      exchangesShape: 'documented',
      exchangesCodePrefix: 'abc',
      extrasAuth: 'none',
      vendorPrefix: 'vendor',
      errorTexts: {
        auth: 'Error: invalid username or password',
        missingParameter: 'Error: missing parameter <name>',
        invalidDate: 'Error: invalid date <value>',
        unknownSymbol: 'Error: unknown symbol <sym>',
        notEntitled: 'Error: not entitled to <sym>',
        invalidValue: 'Error: invalid value <value> for parameter <name>',
      },
      faults: [],
      ticksPerDay: undefined,
      cacheBodies: false,
      instrumentsBigCount: 100_000,
      instrumentsSchema: 'compact',
      now: undefined,
    });
  });

  it('states every option in the help text', () => {
    for (const key of Object.keys(defaultEmulatorOptions()))
      expect(EMULATOR_HELP, key).toMatch(new RegExp(`\\b${key}\\b`));
    for (const key of Object.keys(defaultEmulatorOptions().errorTexts))
      expect(EMULATOR_HELP).toContain(`errorTexts.${key}`);
  });

  it.each([
    ['lineEnding', 'lf', { lineEnding: 'lf' }],
    ['errorStatus', '401', { errorStatus: 401 }],
    ['finalNewline', 'false', { finalNewline: false }],
    ['strayLineEnd', 'true', { strayLineEnd: true }],
    ['rowCap', '500', { rowCap: 500 }],
    ['eodEnd', 'exclusive', { eodEnd: 'exclusive' }],
    ['tickLimit', 'exact', { tickLimit: 'exact' }],
    ['rateLimit', 'off', { rateLimit: undefined }],
    ['ticksPerDay', '15000000', { ticksPerDay: 15_000_000 }],
    ['port', '0', { port: 0 }],
    ['port', '65535', { port: 65535 }],
    ['latency', '0', { latency: 0 }],
    ['latency', '50', { latency: 50 }],
    ['formTHours', '07:00-18:30', { formTHours: '07:00-18:30' }],
    ['vendorPrefix', 'acme', { vendorPrefix: 'acme' }],
    ['exchangesShape', 'legacy', { exchangesShape: 'legacy' }],
    ['instrumentsSchema', 'full', { instrumentsSchema: 'full' }],
    ['exchangesCodePrefix', 'xyz', { exchangesCodePrefix: 'xyz' }],
    ['faults', '{"kind":"status","status":503}', { faults: [{ kind: 'status', status: 503 }] }],
    ['now', '2025-03-14T15:00:00Z', { now: new Date('2025-03-14T15:00:00Z') }],
  ])('parses %s=%s', (key, value, expected) => {
    expect(parseEmulatorOption(key, value)).toEqual(expected);
  });

  it('parses one error text over the defaults', () => {
    const { errorTexts } = parseEmulatorOption('errorTexts.auth', 'Error: bad login');
    expect(errorTexts).toMatchObject({
      auth: 'Error: bad login',
      unknownSymbol: 'Error: unknown symbol <sym>',
    });
  });

  it.each([
    ['lineEnding', 'cr', /expected one of crlf, lf/],
    ['errorStatus', '500', /expected one of 200, 400, 401, 403/],
    ['rowCap', '-1', /integer >= 1/],
    ['port', '65536', /integer 0-65535/],
    ['latency', '-5', /integer >= 0/],
    ['finalNewline', 'yes', /true or false/],
    ['formTHours', '4-20', /HH:MM-HH:MM/],
    ['exchangesShape', 'old', /expected one of documented, legacy/],
    ['exchangesCodePrefix', 'ABC', /lower-case letters/],
    ['faults', '[{', /expected JSON/],
    ['now', 'soon', /ISO time/],
    ['colour', 'blue', /unknown emulator option "colour"/],
  ])('rejects %s=%s', (key, value, message) => {
    expect(() => parseEmulatorOption(key, value)).toThrow(message);
  });

  it('exposes base URLs and MDGET_* variables without trailing slashes', async () => {
    await withEmulator({ username: 'u', password: 'p', exchangesPath: 'xl' }, async (emu) => {
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emu.urls).toEqual({
        historical: `${emu.url}/historical`,
        futuresOptions: `${emu.url}/fo`,
        extras: `${emu.url}/extras`,
        instruments: `${emu.url}/instruments`,
      });
      // the suite's debug switch is the helper's (withEmulator), not the emulator's
      const { MDGET_DEBUG_POISON, MDGET_DEBUG_PLAIN: _plain, ...env } = emu.env;
      expect(MDGET_DEBUG_POISON).toBe('1');
      expect(env).toEqual({
        MDGET_USERNAME: 'u',
        MDGET_PASSWORD: 'p',
        MDGET_HISTORICAL_URL: emu.urls.historical,
        MDGET_FUTURES_OPTIONS_URL: emu.urls.futuresOptions,
        MDGET_EXTRAS_URL: emu.urls.extras,
        MDGET_EXCHANGES_PATH: 'xl',
        MDGET_INSTRUMENTS_URL: emu.urls.instruments,
      });
    });
  });
});
