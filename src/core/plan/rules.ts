/**
 * The rules a download's options must keep, each checked here once for the CLI and the library alike:
 * a broken rule is MDGET_USAGE naming the option in the caller's words (names.ts), before any request,
 * and carrying the option it is about (a dataset file points at that option's line).
 */
import { usageError } from '../model/errors.js';
import {
  formatFitsName,
  formOfName,
  OUTPUT_FORMATS,
  type OutputFormat,
  PARQUET_COMPRESSIONS,
} from '../model/formats.js';
import { libraryName, OPTION_ROWS, type OptionRow } from '../model/option-schema.js';
import type { DownloadName, DownloadOptions, ExtraParams } from '../model/options.js';
import { optionKey, type ParamSpec } from '../model/params.js';
import { columnsOfOutput } from '../model/record-shapes.js';
import { assertTimeZone, UTC_FORM } from '../time/time-zones.js';
import type { NameOf } from './names.js';
import { outputKey } from './outputs.js';
import type { PlannedRequest } from './planned-request.js';
import { checkOutputPath } from './templates.js';

const COLUMN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DAY_MS = 86_400_000;

/** What the shared rules need of a command: whether it is a time series, its parameters, its format. */
export interface RuleContext {
  command: DownloadName;
  series: boolean;
  params: readonly ParamSpec[];
  format: OutputFormat;
  names: NameOf;
}

/** Throws MDGET_USAGE for options that exclude each other, values out of range, and options that cannot apply. */
export function checkOptions(options: DownloadOptions, ctx: RuleContext): void {
  const n = ctx.names;
  checkSymbols(options.symbols, ctx);
  checkParamValues(options, ctx.params, n);
  if (options.skipExisting && options.force)
    throw usageError(`${n('skipExisting')} and ${n('force')} exclude each other`, 'skipExisting');
  if (options.output !== undefined) checkOutputPath(options.output, n('output'));
  checkBounds(options, n);
  checkPositive(options.timeoutMs, 'timeoutMs', 'a positive number of milliseconds', n);
  checkPositive(options.rate, 'rate', 'a positive number of requests per second', n);
  if (options.shard) {
    const { index, count } = options.shard;
    if (!(Number.isInteger(index) && Number.isInteger(count) && index >= 1 && index <= count))
      throw usageError(`${n('shard')} '${index}/${count}': expected i/n with 1 ≤ i ≤ n, e.g. 2/4`, 'shard');
  }
  if (options.windowMs !== undefined) checkWindow(options.windowMs, ctx);
  if (options.update) checkUpdate(options, ctx);
  checkFormat(options, ctx.format, n);
  checkRewrites(options, ctx.format, n);
  if (options.extra) checkExtra(options.extra, ctx);
}

/** A symbol is up to 64 characters without spaces or commas (lists go out comma-joined). */
const SYMBOL = /^[^\s,]{1,64}$/;

function checkSymbols(symbols: string | readonly string[] | undefined, ctx: RuleContext): void {
  const list = typeof symbols === 'string' ? [symbols] : symbols;
  const what = ctx.command === 'futopts' ? 'root' : 'symbol';
  if (!Array.isArray(list) || list.length === 0)
    throw usageError(`no ${what}s: give ${ctx.names('symbols')}`, 'symbols');
  for (const symbol of list as readonly unknown[]) {
    if (typeof symbol !== 'string' || !SYMBOL.test(symbol))
      throw usageError(
        `invalid ${what} '${String(symbol)}': expected up to 64 characters without spaces or commas`,
        'symbols',
      );
  }
}

/** The range of a query for one symbol: its end after its start (end is exclusive, as on the service). */
export function checkRange(start: Date | undefined, end: Date | undefined, names: NameOf): void {
  if (start && end && end.getTime() <= start.getTime()) {
    const day = (time: Date) => time.toISOString().slice(0, 10);
    throw usageError(
      `${names('end')} ${day(end)} must be after ${names('start')} ${day(start)} (end is exclusive: use the day after)`,
      'end',
    );
  }
}

/** The option table's rows with bounds, each with the library's name of its value. */
const BOUNDED = (OPTION_ROWS as readonly OptionRow[]).flatMap((row) => {
  const option = libraryName(row);
  return row.min === undefined || option === undefined
    ? []
    : [{ option, range: { min: row.min, max: row.max } }];
});

/**
 * Throws MDGET_USAGE for a value out of its row's bounds (option-schema.ts), read from `values` by the
 * library's name: download()'s settings and createClient's options alike, as the flag's parser bounds it.
 */
export function checkBounds(values: object, n: NameOf): void {
  const given = values as Readonly<Record<string, unknown>>;
  for (const { option, range } of BOUNDED) checkWholeNumber(given[option], option, range, n);
}

function checkPositive(value: number | undefined, option: string, expected: string, n: NameOf): void {
  if (value === undefined || (typeof value === 'number' && value > 0 && Number.isFinite(value))) return;
  throw usageError(`${n(option)} takes ${expected}, not '${value}'`);
}

function checkWholeNumber(
  value: unknown,
  option: string,
  range: { min: number; max?: number },
  n: NameOf,
): void {
  if (value === undefined) return;
  if (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= range.min &&
    value <= (range.max ?? Number.MAX_SAFE_INTEGER)
  )
    return;
  const expected =
    range.max === undefined
      ? `a whole number ≥ ${range.min}`
      : `a whole number from ${range.min} to ${range.max}`;
  throw usageError(`${n(option)} takes ${expected}, not '${String(value)}'`, option);
}

/** Each service parameter's value against its row: whole numbers in range, choices, patterns, dates. */
function checkParamValues(options: DownloadOptions, specs: readonly ParamSpec[], n: NameOf): void {
  const values = options as unknown as Record<string, unknown>;
  for (const spec of specs) {
    if (spec.query === '') continue; // endpoint selectors: variant, json
    const key = optionKey(spec.flag);
    const value = values[key];
    if (value === undefined) continue;
    switch (spec.kind) {
      case 'int':
        if (typeof value !== 'number')
          throw usageError(`${n(key)} takes a whole number, not '${String(value)}'`, key);
        checkWholeNumber(
          value,
          key,
          { min: spec.min ?? 0, ...(spec.max === undefined ? {} : { max: spec.max }) },
          n,
        );
        break;
      case 'flag':
        if (typeof value !== 'boolean')
          throw usageError(`${n(key)} takes true or false, not '${String(value)}'`, key);
        break;
      case 'choice':
        if (!spec.choices?.includes(String(value)) || typeof value !== 'string')
          throw usageError(`${n(key)} '${String(value)}': use one of ${spec.choices?.join(', ')}`, key);
        break;
      case 'string':
        if (typeof value !== 'string' || (spec.pattern && !spec.pattern.test(value)))
          throw usageError(
            `${n(key)} '${String(value)}': expected ${spec.form ?? spec.pattern?.source ?? 'text'}`,
            key,
          );
        break;
      case 'date':
        if (!(typeof value === 'string' || (value instanceof Date && !Number.isNaN(value.getTime()))))
          throw usageError(`${n(key)}: not a date: give a valid Date or a date such as 2025-03-10`, key);
        break;
    }
  }
}

function checkWindow(windowMs: number, ctx: RuleContext): void {
  const n = ctx.names;
  if (!(windowMs > 0))
    throw usageError(`${n('windowMs')}: expected a positive duration, not '${windowMs}'`, 'windowMs');
  if (!ctx.series)
    throw usageError(`${n('windowMs')} applies to ticks, minutes and eod (time series)`, 'windowMs');
  if (ctx.command === 'ticks' && windowMs > DAY_MS)
    throw usageError(
      `${n('windowMs')}: ticks are served one day per request: use a window of 1d or less, e.g. 1h`,
      'windowMs',
    );
}

/** --update needs a file output of a time series it can append to, in ascending order. */
function checkUpdate(options: DownloadOptions, ctx: RuleContext): void {
  const n = ctx.names;
  const values = options as { order?: string; maxrecords?: number; start?: unknown };
  if (!ctx.series)
    throw usageError(`${n('update')} applies to ticks, minutes and eod (time series)`, 'update');
  if (options.output === undefined)
    throw usageError(
      `${n('update')} needs ${n('output')} <file> or a template: a stream cannot be resumed`,
      'update',
    );
  if (ctx.format === 'json')
    throw usageError(
      `${n('update')} cannot append to a JSON array: use ${n('format')} csv, ndjson or raw`,
      'update',
    );
  if (values.order === 'desc')
    throw usageError(`${n('update')} resumes after the last row: it needs ${n('order')} asc`, 'update');
  if (values.maxrecords !== undefined)
    throw usageError(`${n('update')} and ${n('maxrecords')} exclude each other`, 'update');
  if (values.start === undefined)
    throw usageError(
      `${n('update')} needs ${n('start')}: the first day the file holds (rows it has are not fetched again)`,
      'update',
    );
  if (options.force || options.skipExisting)
    throw usageError(`${n('update')} excludes ${n('force')} and ${n('skipExisting')}`, 'update');
}

/**
 * The format against the output: a known one; --compression only with parquet, which compresses its own
 * pages and so takes no gzip on top; a name that asks for another format than the one given is refused
 * (csv under `x.ndjson` would mislead every reader that trusts the name).
 */
function checkFormat(options: DownloadOptions, format: OutputFormat, n: NameOf): void {
  if (!OUTPUT_FORMATS.includes(format))
    throw usageError(`${n('format')} '${String(format)}': use one of ${OUTPUT_FORMATS.join(', ')}`, 'format');
  const { compression, output } = options;
  if (compression !== undefined && !PARQUET_COMPRESSIONS.includes(compression))
    throw usageError(
      `${n('compression')} '${String(compression)}': use one of ${PARQUET_COMPRESSIONS.join(', ')}`,
      'compression',
    );
  if (compression !== undefined && format !== 'parquet')
    throw usageError(`${n('compression')} applies to ${n('format')} parquet, not ${format}`, 'compression');
  const named = output === undefined ? { gzip: false } : formOfName(output);
  if (named.format !== undefined && !formatFitsName(format, named.format))
    throw usageError(
      `${n('output')} ${output} names ${A_FILE_OF[named.format]} file: drop ${n('format')} ${format}, or rename it`,
      'output',
    );
  if (format === 'parquet' && (options.gzip || named.gzip))
    throw usageError(
      `${n('format')} parquet compresses its own pages (${n('compression')}): drop ${n('gzip')} or the .gz`,
      'format',
    );
}

/** How a message names a file of each format. */
const A_FILE_OF: Record<OutputFormat, string> = {
  csv: 'a csv',
  raw: 'a raw',
  ndjson: 'an ndjson',
  json: 'a json',
  parquet: 'a Parquet',
};

/**
 * A typed output needs the records' columns: each output of the job must have them (futopts with its
 * JSON passes the service's document through, and has none).
 */
export function checkTypedOutputs(requests: readonly PlannedRequest[], names: NameOf): void {
  for (const request of requests) {
    if (!columnsOfOutput([request]))
      throw usageError(
        `${names('format')} parquet needs records with columns: ${request.command} ${names('json')} passes the service's JSON through; use ${names('format')} json or raw`,
        'format',
      );
  }
}

/** Zones and columns rewrite records: they need valid names, and a format that is not the service's bytes. */
function checkRewrites(options: DownloadOptions, format: OutputFormat, n: NameOf): void {
  const { timeZone, sourceTimeZone, columns } = options;
  if (timeZone !== undefined && timeZone !== UTC_FORM)
    assertTimeZone(timeZone, n('timeZone', timeZone), 'timeZone');
  if (sourceTimeZone !== undefined) assertTimeZone(sourceTimeZone, n('sourceTimeZone'), 'sourceTimeZone');
  if (columns !== undefined) {
    const bad = columns.find((name) => !COLUMN.test(name));
    if (columns.length === 0 || bad !== undefined)
      throw usageError(
        `${n('columns')} '${columns.join(',')}': expected a comma list of csv header names`,
        'columns',
      );
    const twice = columns.find((name, i) => columns.indexOf(name) !== i);
    if (twice !== undefined) throw usageError(`${n('columns')}: ${twice} is named twice`, 'columns');
  }
  const rewrites = [
    timeZone === undefined ? undefined : n('timeZone', timeZone),
    sourceTimeZone === undefined ? undefined : n('sourceTimeZone'),
    columns === undefined ? undefined : n('columns'),
  ].filter((name) => name !== undefined);
  if (format === 'raw' && rewrites.length > 0)
    throw usageError(
      `${rewrites.join(', ')}: ${n('format')} raw passes the service bytes through unchanged`,
      timeZone !== undefined ? 'timeZone' : sourceTimeZone !== undefined ? 'sourceTimeZone' : 'columns',
    );
}

/** Positional query names: given as symbols (or roots), never as extra parameters. */
const POSITIONAL: Partial<Record<DownloadName, string>> = {
  futopts: 'root',
  events: 'symbols',
  daterange: 'symbols',
};

/** Extra parameters may set what mdget does not model: not the credentials, the symbols, nor a modelled one. */
function checkExtra(extra: ExtraParams, ctx: RuleContext): void {
  const n = ctx.names;
  const positional = POSITIONAL[ctx.command] ?? 'symbol';
  for (const [key] of extra) {
    if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(key))
      throw usageError(`${n('extra')} '${key}': not a parameter name`, 'extra');
    const lower = key.toLowerCase();
    if (lower === 'username' || lower === 'password')
      throw usageError(
        `${n('extra')} ${key}: credentials come from MDGET_USERNAME / MDGET_PASSWORD`,
        'extra',
      );
    if (lower === positional)
      throw usageError(
        `${n('extra')} ${key}: give ${positional === 'root' ? 'roots' : 'symbols'} as arguments`,
        'extra',
      );
    const modelled = ctx.params.find((s) => s.query === lower && s.query !== 'data');
    if (modelled)
      throw usageError(`${n('extra')} ${key}: use ${n(optionKey(modelled.flag))} instead`, 'extra');
  }
}

/**
 * --columns against the columns of each output: a name an output has not is MDGET_USAGE listing the names
 * it has; the indices of the picked columns, in order.
 */
export function pickColumns(wanted: readonly string[], columns: readonly string[], names: NameOf): number[] {
  return wanted.map((name) => {
    const index = columns.indexOf(name);
    if (index < 0)
      throw usageError(
        `${names('columns')}: no column '${name}' here; the columns are ${columns.join(',')}`,
        'columns',
      );
    return index;
  });
}

/** Checks --columns against every output of a job before any request. */
export function checkColumns(
  requests: readonly PlannedRequest[],
  wanted: readonly string[],
  names: NameOf,
): void {
  const byOutput = new Map<string, PlannedRequest[]>();
  for (const request of requests) {
    const key = outputKey(request.output);
    byOutput.set(key, [...(byOutput.get(key) ?? []), request]);
  }
  for (const group of byOutput.values()) {
    const columns = columnsOfOutput(group);
    if (!columns)
      throw usageError(
        `${names('columns')}: this output has no csv columns to pick (futopts --json)`,
        'columns',
      );
    pickColumns(wanted, columns, names);
  }
}
