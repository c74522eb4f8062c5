/**
 * Every switch of the emulator with its default: the behaviours of the service that are unknown or inferred
 * (docs/service.md#assumptions-and-emulator-options) are options here (or fixed and stated in
 * EMULATOR_HELP), so tests can cover each reading of the unknown.
 */

/** A fault injected into matching requests (see EMULATOR_HELP). */
export type FaultKind =
  | { kind: 'status'; status: number; body?: string; retryAfter?: number }
  | { kind: 'inBandError'; message: string }
  | { kind: 'errorAfterData'; message: string }
  | { kind: 'html' }
  | { kind: 'truncate'; afterBytes: number }
  | { kind: 'partialLine' }
  | { kind: 'reset'; afterBytes: number }
  | { kind: 'hangUp' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'redirect'; location: string }
  | { kind: 'badGzip' };

/** A fault plus which requests it hits: `path` is an endpoint file name; `times` how many, then used up. */
export type Fault = FaultKind & { path?: string; times?: number };

/** Texts of in-band errors; `<name>`, `<value>` and `<sym>` are replaced. */
export interface ErrorTexts {
  auth: string;
  missingParameter: string;
  invalidDate: string;
  unknownSymbol: string;
  notEntitled: string;
  invalidValue: string;
}

/** Options of one emulator instance; `startEmulator` takes any subset. */
export interface EmulatorOptions {
  host: string;
  port: number;
  username: string;
  password: string;
  lineEnding: 'crlf' | 'lf';
  finalNewline: boolean;
  /**
   * One extra `\r\n` after every CSV data body, as real responses may have (docs/service.md#response-lines).
   */
  strayLineEnd: boolean;
  errorStatus: 200 | 400 | 401 | 403;
  errorTexts: ErrorTexts;
  unknownSymbol: 'error' | 'empty';
  gzip: 'auto' | 'never';
  contentType: string;
  transfer: 'chunked' | 'length';
  /** Silent server cap on rows per response; undefined = none. */
  rowCap: number | undefined;
  /** Answer every data request as if it had no `start`: a server that ignores it, or rounds it away. */
  ignoreStart: boolean;
  /**
   * A tick limit (`maxrecords`, `rowCap`) cut: `second` also returns the rest of the last second
   * (docs/service.md#maxrecords-and-order), `exact` stops at exactly N rows (the older reading).
   */
  tickLimit: 'second' | 'exact';
  /** Requests per second above which the emulator answers 429; undefined = off. */
  rateLimit: number | undefined;
  /** Seconds sent in `Retry-After` with rate-limit 429s. */
  retryAfter: number;
  /** Milliseconds waited before the response headers of every request (batch benchmarks). */
  latency: number;
  maxQueryLength: number;
  tickDay: 'calendar' | 'session';
  barLabel: 'start' | 'end';
  barAlign: 'clock' | 'session';
  /** Form-T minutes, Eastern wall clock, `HH:MM-HH:MM`. */
  formTHours: string;
  periodDate: 'first' | 'last';
  /**
   * EOD `end`: inclusive as the vendor's manual says (docs/service.md#end-of-day-bars), or the older
   * exclusive reading.
   */
  eodEnd: 'inclusive' | 'exclusive';
  splitNotation: '4-1' | '4:1' | '4/1' | 'ratio';
  dateRangeShape: 'symbol-first-last' | 'symbol-first-last-count';
  futuresOptionsShape: 'standard' | 'extended';
  exchangesPath: string;
  exchangesEncoding: 'utf-8' | 'iso-8859-1';
  /** `documented` or `legacy`, the shape of the 2012/2013 lists (docs/service.md#exchanges-list). */
  exchangesShape: 'documented' | 'legacy';
  /** Lower-case brand prefix of the legacy `<prefix>code` attribute (three letters in real lists). */
  exchangesCodePrefix: string;
  extrasAuth: 'none' | 'query';
  vendorPrefix: string;
  faults: Fault[];
  /** Ticks per trading day instead of the small default density (benchmarks). */
  ticksPerDay: number | undefined;
  cacheBodies: boolean;
  instrumentsBigCount: number;
  /**
   * Entries of BIG-instruments.json: `compact` (about 250 bytes) or `full`, every field of
   * docs/service.md#instrument-fields (about 1.2 KB: 200,000 entries make about 230 MiB).
   */
  instrumentsSchema: 'compact' | 'full';
  /** The emulator's clock ("today", data cut-off); undefined = the real clock. */
  now: Date | undefined;
}

/** Defaults of every option (docs/service.md#assumptions-and-emulator-options). */
export function defaultEmulatorOptions(): EmulatorOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    username: 'demo',
    password: 'demo',
    lineEnding: 'crlf',
    finalNewline: true,
    strayLineEnd: false,
    errorStatus: 200,
    errorTexts: {
      auth: 'Error: invalid username or password',
      missingParameter: 'Error: missing parameter <name>',
      invalidDate: 'Error: invalid date <value>',
      unknownSymbol: 'Error: unknown symbol <sym>',
      notEntitled: 'Error: not entitled to <sym>',
      invalidValue: 'Error: invalid value <value> for parameter <name>',
    },
    unknownSymbol: 'error',
    gzip: 'auto',
    contentType: 'text/plain; charset=utf-8',
    transfer: 'chunked',
    rowCap: undefined,
    ignoreStart: false,
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
    faults: [],
    ticksPerDay: undefined,
    cacheBodies: false,
    instrumentsBigCount: 100_000,
    instrumentsSchema: 'compact',
    now: undefined,
  };
}

/** Merges a partial set of options over the defaults (error texts merge key by key). */
export function resolveEmulatorOptions(partial: Partial<EmulatorOptions> = {}): EmulatorOptions {
  const defaults = defaultEmulatorOptions();
  const defined = Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined));
  return {
    ...defaults,
    ...defined,
    errorTexts: { ...defaults.errorTexts, ...partial.errorTexts },
    faults: [...(partial.faults ?? [])],
  };
}

const CHOICES = {
  lineEnding: ['crlf', 'lf'],
  errorStatus: ['200', '400', '401', '403'],
  unknownSymbol: ['error', 'empty'],
  gzip: ['auto', 'never'],
  transfer: ['chunked', 'length'],
  tickLimit: ['second', 'exact'],
  tickDay: ['calendar', 'session'],
  barLabel: ['start', 'end'],
  barAlign: ['clock', 'session'],
  periodDate: ['first', 'last'],
  eodEnd: ['inclusive', 'exclusive'],
  splitNotation: ['4-1', '4:1', '4/1', 'ratio'],
  dateRangeShape: ['symbol-first-last', 'symbol-first-last-count'],
  futuresOptionsShape: ['standard', 'extended'],
  exchangesEncoding: ['utf-8', 'iso-8859-1'],
  exchangesShape: ['documented', 'legacy'],
  extrasAuth: ['none', 'query'],
  instrumentsSchema: ['compact', 'full'],
} as const;

const STRINGS = ['host', 'username', 'password', 'contentType', 'exchangesPath', 'vendorPrefix'] as const;
const INTEGERS = ['port', 'retryAfter', 'maxQueryLength', 'instrumentsBigCount', 'latency'] as const;
/** Integers that may be 0, and upper bounds where there is one. */
const INTEGER_MIN: Record<string, number> = { port: 0, latency: 0 };
const INTEGER_MAX: Record<string, number> = { port: 65535 };
const OPTIONAL_INTEGERS = ['rowCap', 'rateLimit', 'ticksPerDay'] as const;
const BOOLEANS = ['finalNewline', 'strayLineEnd', 'cacheBodies', 'ignoreStart'] as const;
const ERROR_TEXT_KEYS = [
  'auth',
  'missingParameter',
  'invalidDate',
  'unknownSymbol',
  'notEntitled',
  'invalidValue',
];

const includes = <T extends string>(list: readonly T[], key: string): key is T =>
  (list as readonly string[]).includes(key);

function parseInteger(key: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `${min}-${max}`;
    throw new Error(`emulator option ${key}: expected an integer ${range}, got "${value}"`);
  }
  return number;
}

function parseFaults(value: string): Fault[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(
      `emulator option faults: expected JSON such as [{"kind":"status","status":503}], got "${value}"`,
    );
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  for (const fault of list) {
    if (
      typeof fault !== 'object' ||
      fault === null ||
      typeof (fault as { kind?: unknown }).kind !== 'string'
    ) {
      throw new Error('emulator option faults: every fault needs a "kind"');
    }
  }
  return list as Fault[];
}

/**
 * Parses one `--set key=value` of the `emulator` command into a partial option set; throws an Error
 * with a one-line message for an unknown key or a bad value. `errorTexts.<key>` sets one error text,
 * `faults` takes JSON (one fault or an array), `now` an ISO instant.
 */
export function parseEmulatorOption(key: string, value: string): Partial<EmulatorOptions> {
  if (includes(STRINGS, key)) return { [key]: value };
  if (includes(INTEGERS, key))
    return { [key]: parseInteger(key, value, INTEGER_MIN[key] ?? 1, INTEGER_MAX[key]) };
  if (includes(OPTIONAL_INTEGERS, key)) {
    return {
      [key]: value === '' || value === 'none' || value === 'off' ? undefined : parseInteger(key, value, 1),
    };
  }
  if (includes(BOOLEANS, key)) {
    if (value !== 'true' && value !== 'false')
      throw new Error(`emulator option ${key}: expected true or false, got "${value}"`);
    return { [key]: value === 'true' };
  }
  if (key in CHOICES) {
    const choices: readonly string[] = CHOICES[key as keyof typeof CHOICES];
    if (!choices.includes(value))
      throw new Error(`emulator option ${key}: expected one of ${choices.join(', ')}, got "${value}"`);
    return { [key]: key === 'errorStatus' ? Number(value) : value };
  }
  if (key === 'formTHours') {
    if (!parseHoursRange(value))
      throw new Error(`emulator option formTHours: expected HH:MM-HH:MM, got "${value}"`);
    return { formTHours: value };
  }
  if (key === 'exchangesCodePrefix') {
    if (!/^[a-z]+$/.test(value))
      throw new Error(`emulator option exchangesCodePrefix: expected lower-case letters, got "${value}"`);
    return { exchangesCodePrefix: value };
  }
  if (key === 'faults') return { faults: parseFaults(value) };
  if (key === 'now') {
    const now = new Date(value);
    if (Number.isNaN(now.getTime()))
      throw new Error(`emulator option now: expected an ISO time, got "${value}"`);
    return { now };
  }
  if (key.startsWith('errorTexts.') && ERROR_TEXT_KEYS.includes(key.slice('errorTexts.'.length))) {
    const texts = { ...defaultEmulatorOptions().errorTexts, [key.slice('errorTexts.'.length)]: value };
    return { errorTexts: texts };
  }
  throw new Error(`unknown emulator option "${key}": see mdget emulator --help-options for the list`);
}

/** Minutes of day [from, to) of `HH:MM-HH:MM`, or undefined. */
export function parseHoursRange(text: string): [number, number] | undefined {
  const match = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const from = Number(match[1]) * 60 + Number(match[2]);
  const to = Number(match[3]) * 60 + Number(match[4]);
  return from < to && to <= 1440 && Number(match[2]) < 60 && Number(match[4]) < 60 ? [from, to] : undefined;
}
