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
  minutes: shape([
    { re: re(MINUTE, TD, OPT, OPT, OPT, OPT, OPT), header: ['time', 'trading_day', ...OHLCV] },
    {
      re: re(SYM, MINUTE, TD, OPT, OPT, OPT, OPT, OPT),
      header: ['contract', 'time', 'trading_day', ...OHLCV],
    },
    { re: re(MINUTE, OPT, OPT), header: ['time', 'support', 'resistance'], trend: true },
  ]),
  nearbyMinutes: shape([
    {
      re: re(SYM, MINUTE, TD, OPT, OPT, OPT, OPT, OPT),
      header: ['contract', 'time', 'trading_day', ...OHLCV],
    },
  ]),
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

const TICK_COLUMNS = ['time', 'trading_day', 'session_code'];

/**
 * The csv columns of an output, fixed before the first response (issue 8: a self-describing csv). Ticks
 * and every minutes variant lead with `symbol`, so one output holding several symbols still tells them
 * apart; `contract` is there when any symbol of the output can carry one (nearby, `ROOT*n`); EOD always has
 * `open_interest` (empty for equities). Undefined for shapes the tool does not model (futopts JSON).
 */
export function outputColumns(
  kind: RecordKind,
  options: { trend: boolean; contract: boolean },
): readonly string[] | undefined {
  switch (kind) {
    case 'ticks':
      return ['symbol', ...TICK_COLUMNS, ...(options.trend ? ['support', 'resistance'] : ['price', 'size'])];
    case 'minutes':
      if (options.trend) return ['symbol', 'time', 'support', 'resistance'];
      return ['symbol', ...(options.contract ? ['contract'] : []), 'time', 'trading_day', ...OHLCV];
    case 'nearbyMinutes':
      return ['symbol', 'contract', 'time', 'trading_day', ...OHLCV];
    case 'eod':
      return options.trend
        ? ['symbol', 'date', 'support', 'resistance']
        : ['symbol', 'date', ...OHLCV, 'open_interest'];
    case 'events':
      return ['symbol', 'date', 'event_type', 'value'];
    case 'dateRange':
      return ['symbol', 'first', 'last'];
    case 'futuresOptions':
      return RECORD_SHAPES.futuresOptions.header(12, false);
    case 'opaque':
      return undefined;
  }
}

/** How the lines of one response become rows of the output's columns: text before and after each line. */
export interface LineAdaptation {
  prefix: string;
  suffix: string;
}

/**
 * The adaptation of a response whose first line has `fieldCount` fields to `columns`, or undefined when
 * the line does not fit them (an undocumented shape: its lines go out as they are).
 */
export function adaptLines(
  kind: RecordKind,
  fieldCount: number,
  columns: readonly string[] | undefined,
  symbol: string,
): LineAdaptation | undefined {
  if (!columns) return undefined;
  const lead = columns[0] === 'symbol' && !RECORD_SHAPES[kind].hasSymbol(fieldCount) ? `${symbol},` : '';
  const contract = columns.includes('contract') && kind === 'minutes' && fieldCount === 7 ? ',' : '';
  const prefix = lead + contract;
  const missing = columns.length - fieldCount - (lead ? 1 : 0) - (contract ? 1 : 0);
  if (missing === 0) return { prefix, suffix: '' };
  // EOD equities have no open interest (spec §5): an empty last field keeps the column count.
  if (kind === 'eod' && fieldCount === 7 && missing === 1) return { prefix, suffix: ',' };
  return undefined;
}
