/**
 * What a record line of each endpoint looks like (wire-formats §2): its csv header and a check used on the
 * first and last lines of a body to tell data from a maintenance page or a line cut short by a dropped
 * connection. Every line is not checked: touching each byte in JS costs ~2 s/GiB (shared/notes).
 */
export type RecordKind =
  | 'ticks'
  | 'minutes'
  | 'nearbyMinutes'
  | 'eod'
  | 'events'
  | 'dateRange'
  | 'futuresOptions'
  | 'opaque';

export interface RecordShape {
  /** csv header of a line with this many fields, or undefined when the count does not fit. */
  header(fieldCount: number, trend: boolean): readonly string[] | undefined;
  /** True when the line (without its line end) is a complete record of this endpoint. */
  matches(line: string): boolean;
  /** Whether the record carries its own symbol column (else ndjson/json add one). */
  hasSymbol(fieldCount: number): boolean;
  /** False for endpoints whose shape is undocumented: lines pass through unchecked (spec §2.7, §2.8). */
  checked: boolean;
}

const NUM = '-?\\d+(?:\\.\\d+)?';
const OPT = `(?:${NUM})?`;
const DAY = '\\d{4}-\\d{2}-\\d{2}';
const MINUTE = `${DAY} \\d{2}:\\d{2}`;
const TICK = `${MINUTE}:\\d{2}\\.\\d{3}`;
const TD = '\\d{1,2}';
const SYM = '[^,\\s]+';

const re = (...fields: string[]) => new RegExp(`^${fields.join(',')}$`);

function shape(
  variants: readonly { re: RegExp; header: readonly string[]; fields?: number; trend?: boolean }[],
  symbolFieldCounts: readonly number[] = [],
): RecordShape {
  return {
    header: (count, trend) => {
      const fits = (v: (typeof variants)[number]) => (v.fields ?? v.header.length) === count;
      return (variants.find((v) => fits(v) && !!v.trend === trend) ?? variants.find(fits))?.header;
    },
    matches: (line) => variants.some((v) => v.re.test(line)),
    hasSymbol: (count) => symbolFieldCounts.includes(count),
    checked: true,
  };
}

const OHLCV = ['open', 'high', 'low', 'close', 'volume'];

/** The shape of each record kind. */
export const RECORD_SHAPES: Record<RecordKind, RecordShape> = {
  ticks: shape([
    { re: re(TICK, TD, '[^,]?', NUM, OPT), header: ['time', 'trading_day', 'session_code', 'price', 'size'] },
    {
      re: re(TICK, TD, '[^,]?', OPT, OPT),
      header: ['time', 'trading_day', 'session_code', 'support', 'resistance'],
      trend: true,
    },
  ]),
  minutes: shape(
    [
      { re: re(MINUTE, TD, OPT, OPT, OPT, OPT, OPT), header: ['time', 'trading_day', ...OHLCV] },
      {
        re: re(SYM, MINUTE, TD, OPT, OPT, OPT, OPT, OPT),
        header: ['contract', 'time', 'trading_day', ...OHLCV],
      },
      { re: re(MINUTE, OPT, OPT), header: ['time', 'support', 'resistance'], trend: true },
    ],
    [8],
  ),
  nearbyMinutes: shape(
    [
      {
        re: re(SYM, MINUTE, TD, OPT, OPT, OPT, OPT, OPT),
        header: ['contract', 'time', 'trading_day', ...OHLCV],
      },
    ],
    [8],
  ),
  eod: shape(
    [
      // Equities have 7 fields, futures 8 (spec §2.5): one header with open_interest serves a mixed output.
      {
        re: re(SYM, DAY, OPT, OPT, OPT, OPT, OPT),
        header: ['symbol', 'date', ...OHLCV, 'open_interest'],
        fields: 7,
      },
      {
        re: re(SYM, DAY, OPT, OPT, OPT, OPT, OPT, OPT),
        header: ['symbol', 'date', ...OHLCV, 'open_interest'],
      },
      { re: re(SYM, DAY, OPT, OPT), header: ['symbol', 'date', 'support', 'resistance'], trend: true },
    ],
    [4, 7, 8],
  ),
  events: shape(
    [{ re: re(SYM, DAY, '[A-Za-z ]+', '[^,]*'), header: ['symbol', 'date', 'event_type', 'value'] }],
    [4],
  ),
  dateRange: {
    header: (count) => (count === 3 ? ['symbol', 'first', 'last'] : undefined),
    matches: () => true,
    hasSymbol: (count) => count === 3,
    checked: false,
  },
  futuresOptions: {
    header: (count) =>
      count === 12
        ? [
            'symbol',
            'underlying',
            'type',
            'strike',
            'expiration',
            'date',
            ...OHLCV.slice(0, 4),
            'volume',
            'open_interest',
          ]
        : undefined,
    matches: () => true,
    hasSymbol: () => true,
    checked: false,
  },
  opaque: { header: () => undefined, matches: () => true, hasSymbol: () => true, checked: false },
};
