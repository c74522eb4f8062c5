import { COLUMNS } from './records.js';

/**
 * What a record line of each endpoint looks like (docs/service.md#endpoints): its csv header and a check used
 * on the first and last lines of a body to tell data from a maintenance page or a line cut short by a dropped
 * connection. Every line is not checked: a JavaScript pass over every byte would cost more than the download.
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
  /**
   * False for endpoints whose shape is undocumented: lines pass through unchecked
   * (docs/service.md#date-ranges).
   */
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

/** The service's own fields of a record: an output's columns without the symbol mdget adds. */
const fieldsOf = (columns: readonly string[]) => columns.slice(1);

/** The shape of each record kind. */
export const RECORD_SHAPES: Record<RecordKind, RecordShape> = {
  ticks: shape([
    { re: re(TICK, TD, '[^,]?', NUM, OPT), header: fieldsOf(COLUMNS.ticks) },
    { re: re(TICK, TD, '[^,]?', OPT, OPT), header: fieldsOf(COLUMNS.ticksTrend), trend: true },
  ]),
  minutes: shape([
    { re: re(MINUTE, TD, OPT, OPT, OPT, OPT, OPT), header: fieldsOf(COLUMNS.minutes) },
    { re: re(SYM, MINUTE, TD, OPT, OPT, OPT, OPT, OPT), header: fieldsOf(COLUMNS.minutesContract) },
    { re: re(MINUTE, OPT, OPT), header: fieldsOf(COLUMNS.minutesTrend), trend: true },
  ]),
  nearbyMinutes: shape([
    { re: re(SYM, MINUTE, TD, OPT, OPT, OPT, OPT, OPT), header: fieldsOf(COLUMNS.minutesContract) },
  ]),
  eod: shape(
    [
      // Equities have 7 fields, futures 8 (docs/service.md#end-of-day-bars): one header with open_interest
      // serves a mixed output.
      { re: re(SYM, DAY, OPT, OPT, OPT, OPT, OPT), header: COLUMNS.eod, fields: 7 },
      { re: re(SYM, DAY, OPT, OPT, OPT, OPT, OPT, OPT), header: COLUMNS.eod },
      { re: re(SYM, DAY, OPT, OPT), header: COLUMNS.eodTrend, trend: true },
    ],
    [4, 7, 8],
  ),
  events: shape([{ re: re(SYM, DAY, '[A-Za-z ]+', '[^,]*'), header: COLUMNS.events }], [4]),
  dateRange: {
    header: (count) => (count === 3 ? COLUMNS.dateRange : undefined),
    matches: () => true,
    hasSymbol: (count) => count === 3,
    checked: false,
  },
  futuresOptions: {
    header: (count) => (count === 12 ? COLUMNS.futuresOptions : undefined),
    matches: () => true,
    hasSymbol: () => true,
    checked: false,
  },
  opaque: { header: () => undefined, matches: () => true, hasSymbol: () => true, checked: false },
};

/**
 * The csv columns of an output, fixed before the first response (a self-describing csv). Ticks and every
 * minutes variant lead with `symbol`, so one output holding several symbols still tells them apart;
 * `contract` is there when any symbol of the output can carry one (nearby, `ROOT*n`); EOD always has
 * `open_interest` (empty for equities). Undefined for shapes the tool does not model (futopts JSON).
 */
export function outputColumns(
  kind: RecordKind,
  options: { trend: boolean; contract: boolean },
): readonly string[] | undefined {
  switch (kind) {
    case 'ticks':
      return options.trend ? COLUMNS.ticksTrend : COLUMNS.ticks;
    case 'minutes':
      if (options.trend) return COLUMNS.minutesTrend;
      return options.contract ? COLUMNS.minutesContract : COLUMNS.minutes;
    case 'nearbyMinutes':
      return COLUMNS.minutesContract;
    case 'eod':
      return options.trend ? COLUMNS.eodTrend : COLUMNS.eod;
    case 'events':
      return COLUMNS.events;
    case 'dateRange':
      return COLUMNS.dateRange;
    case 'futuresOptions':
      return COLUMNS.futuresOptions;
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
  // EOD equities have no open interest (docs/service.md#end-of-day-bars): an empty last field keeps the
  // column count.
  if (kind === 'eod' && fieldCount === 7 && missing === 1) return { prefix, suffix: ',' };
  return undefined;
}

/** Whether an output's csv has a `contract` column: any of its requests can carry one (nearby, `ROOT*n`). */
export const carriesContract = (requests: readonly { kind: RecordKind; symbol: string }[]): boolean =>
  requests.some((request) => request.kind === 'nearbyMinutes' || request.symbol.includes('*'));

/** The columns of an output written by `requests` (all of one kind), or undefined for an unmodelled shape. */
export const columnsOfOutput = (
  requests: readonly { kind: RecordKind; symbol: string; trend: boolean }[],
): readonly string[] | undefined => {
  const first = requests[0];
  return first && outputColumns(first.kind, { trend: first.trend, contract: carriesContract(requests) });
};
