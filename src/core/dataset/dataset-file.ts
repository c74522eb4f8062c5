/**
 * Reads a dataset: a TOML file (parsed by smol-toml, loaded only here) or an object of the same shape,
 * checked key by key. Each mistake is one MDGET_USAGE line naming the file, the line and the key, before
 * anything is planned or sent; credentials are refused (MDGET_CONFIG): they come from the environment.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { configError, type MdgetError, usageError } from '../model/errors.js';
import type { DownloadName } from '../model/options.js';
import { placeholdersOf } from '../plan/templates.js';
import { timeZoneOptionOf } from '../time/time-zones.js';
import { type Dataset, type DatasetInput, SERIES_KINDS, type Series, type SeriesKind } from './dataset.js';
import { type KeyLocator, type KeyPath, keyLocator } from './key-lines.js';
import { formatOfPath } from './path-formats.js';
import { checkReference } from './reference-file.js';
import { keyPathOf, seriesOptions, show } from './series-options.js';
import { type Checking, outputOf, type Table, tableOf, unknownKeys } from './table-checks.js';

/** The file mdget reads when none is named. */
export const DEFAULT_DATASET_FILE = 'mdget.toml';

const DAY_MS = 86_400_000;

/** Reads and checks the dataset file at `path`. */
export async function readDataset(path: string): Promise<Dataset> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw usageError(
      code === 'ENOENT'
        ? `${path}: no dataset file here; write one (docs/dataset.md) or name it: mdget sync <file>`
        : `${path}: cannot read it (${code ?? (error as Error).message})`,
    );
  }
  const { parse, TomlError } = await import('smol-toml');
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.replace(/^Invalid TOML document: /, '').split('\n')[0];
    throw usageError(`${path}:${error.line}: not valid TOML: ${reason}`);
  }
  return checkDataset(raw, { label: path, file: resolve(path), locate: keyLocator(text) });
}

/** Checks a dataset given as an object; relative paths are taken from `dir`. */
export function datasetFromObject(input: DatasetInput, dir: string): Promise<Dataset> {
  return checkDataset(input, { label: 'dataset', dir: resolve(dir) });
}

interface Source {
  /** How messages name the dataset: its path as given, or `dataset`. */
  label: string;
  file?: string;
  dir?: string;
  locate?: KeyLocator;
}

const TOP_KEYS = ['root', 'series', 'reference'];
const SERIES_KEYS = ['name', 'kind', 'symbols', 'symbols_file', 'start', 'end', 'path', 'tz', 'options'];
const SECRET_KEY = /^(password|username|user|.*-url|.*_url|exchanges-path|exchanges_path)$/i;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SYMBOL = /^[^\s,]{1,64}$/;

async function checkDataset(raw: unknown, source: Source): Promise<Dataset> {
  const at = (path: KeyPath) => {
    const line = source.locate?.(path);
    return `${source.label}${line === undefined ? '' : `:${line}`}`;
  };
  const fail = (path: KeyPath, message: string) => usageError(`${at(path)}: ${message}`);
  refuseSecrets(raw, [], at);
  const top = tableOf(raw, [], 'the dataset', fail);
  unknownKeys(top, TOP_KEYS, [], fail);
  const base = source.file ? dirname(source.file) : (source.dir ?? process.cwd());
  const rootText = top['root'] ?? '.';
  if (typeof rootText !== 'string' || rootText === '')
    throw fail(['root'], `root takes a directory path as a string, not ${show(rootText)}`);
  const root = resolve(base, rootText);
  const series = await checkSeriesList(top['series'], { base, root, at, fail });
  const reference = checkReference(top['reference'], { root, at, fail });
  if (series.length === 0 && reference.length === 0)
    throw fail([], 'nothing to keep: add a [[series]] table or a [reference] table (docs/dataset.md)');
  return { ...(source.file ? { file: source.file } : {}), root, series, reference };
}

async function checkSeriesList(value: unknown, ctx: Checking & { base: string }): Promise<Series[]> {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw ctx.fail(['series'], 'series takes [[series]] tables, one per series (docs/dataset.md)');
  const names = new Set<string>();
  const out: Series[] = [];
  for (const [index, item] of value.entries()) {
    const series = await checkSeries(item, index, ctx);
    if (names.has(series.name))
      throw ctx.fail(
        ['series', index, 'name'],
        `series name "${series.name}" is given twice: names are unique`,
      );
    names.add(series.name);
    out.push(series);
  }
  return out;
}

async function checkSeries(item: unknown, index: number, ctx: Checking & { base: string }): Promise<Series> {
  const here = (...key: (string | number)[]): KeyPath => ['series', index, ...key];
  const table = tableOf(item, here(), 'a [[series]] entry', ctx.fail);
  const name = table['name'];
  if (typeof name !== 'string' || !NAME.test(name))
    throw ctx.fail(
      here('name'),
      name === undefined
        ? 'series: every series needs a name = "..." (letters, digits, . _ -)'
        : `series name ${show(name)}: use up to 64 letters, digits, '.', '_' or '-'`,
    );
  const label = `series "${name}"`;
  const fail = (key: KeyPath, message: string) => ctx.fail(here(...key), `${label}: ${message}`);
  unknownKeys(table, SERIES_KEYS, here(), (path, message) => ctx.fail(path, `${label}: ${message}`));
  const kind = table['kind'];
  if (typeof kind !== 'string' || !(SERIES_KINDS as readonly string[]).includes(kind))
    throw fail(['kind'], `kind ${show(kind)}: expected one of ${SERIES_KINDS.join(', ')}`);
  const symbols = await symbolsOf(table, ctx.base, fail);
  const start = dateOf(table['start'], 'start', fail);
  if (start === undefined) throw fail(['start'], 'start is required: the first day the dataset holds');
  const endValue = table['end'] ?? 'now';
  const end = endValue === 'now' ? 'tomorrow' : dateOf(endValue, 'end', fail);
  const path = table['path'];
  if (typeof path !== 'string')
    throw fail(
      ['path'],
      `path takes the output template as a string, such as "ticks/{symbol}/{date}.csv.gz"`,
    );
  const output = outputOf(path, ctx.root, (message) => fail(['path'], message));
  const { format, gzip } = formatOfPath(path, (message) => fail(['path'], message));
  const used = placeholdersOf(path);
  if (symbols.length > 1 && kind !== 'events' && !used.includes('symbol'))
    throw fail(
      ['path'],
      `path ${path} has no {symbol}: the files of ${symbols.length} symbols would fold into one`,
    );
  const tz = table['tz'];
  if (tz !== undefined && typeof tz !== 'string')
    throw fail(['tz'], `tz takes "UTC" or a zone such as "America/New_York"`);
  const optionsTable = table['options'] ?? {};
  if (optionsTable === null || typeof optionsTable !== 'object' || Array.isArray(optionsTable))
    throw fail(['options'], 'options takes a table, as { session-filter = "+T" }');
  const keyOf = (flag: string) => `${label}: options.${flag}`;
  const where = (option?: string) => ctx.at(option === undefined ? here() : here(...keyPathOf(option)));
  const located = (flag: string) => `${ctx.at(here('options', flag))}: ${keyOf(flag)}`;
  const options = {
    symbols,
    start,
    end,
    output,
    format,
    gzip,
    ...(tz === undefined ? {} : { timeZone: timeZoneOptionOf({ zone: tz, utcByName: true }) }),
    ...seriesOptions(kind as DownloadName, optionsTable as Table, located),
  };
  // `{date}` in a minutes path means a file a day: the windows are a day long unless `window` says more
  if (kind === 'minutes' && used.includes('date') && !('windowMs' in options))
    Object.assign(options, { windowMs: DAY_MS });
  return {
    name,
    kind: kind as SeriesKind,
    command: kind as DownloadName,
    options: options as Series['options'],
    growing: !used.some((key) => key === 'date' || key === 'start' || key === 'end'),
    names: (option) => `${label}: ${keyPathOf(option).join('.')}`,
    where,
  };
}

async function symbolsOf(
  table: Table,
  base: string,
  fail: (key: KeyPath, message: string) => MdgetError,
): Promise<string[]> {
  const list = table['symbols'];
  const file = table['symbols_file'];
  if (list !== undefined && file !== undefined)
    throw fail(['symbols_file'], 'symbols and symbols_file exclude each other: give one');
  let symbols: unknown[];
  let key = 'symbols';
  if (file !== undefined) {
    key = 'symbols_file';
    if (typeof file !== 'string') throw fail([key], 'symbols_file takes a path as a string');
    const text = await readFile(resolve(base, file), 'utf8').catch((error: { code?: string }) => {
      throw fail([key], `symbols_file ${file}: cannot read it (${error.code ?? 'error'})`);
    });
    symbols = text
      .split(/\r?\n/)
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
  } else if (Array.isArray(list)) symbols = list;
  else if (typeof list === 'string') symbols = [list];
  else throw fail(['symbols'], 'symbols takes a list, as ["ESM25", "NQM25"], or use symbols_file');
  if (symbols.length === 0) throw fail([key], `${key} holds no symbol`);
  for (const symbol of symbols)
    if (typeof symbol !== 'string' || !SYMBOL.test(symbol))
      throw fail(
        [key],
        `invalid symbol ${show(symbol)}: expected up to 64 characters without spaces or commas`,
      );
  return symbols as string[];
}

/** A date as written: TOML's own dates (`2025-03-10`) or a string in the download commands' forms. */
function dateOf(
  value: unknown,
  key: string,
  fail: (key: KeyPath, message: string) => MdgetError,
): string | undefined {
  if (value === undefined) return undefined;
  // smol-toml's dates keep their TOML form: a local date, a local time, or an instant with its offset
  if (value instanceof Date) return value.toISOString().replace(/\.\d+(?=Z|[+-]\d\d:\d\d|$)/, '');
  if (typeof value === 'string') return value;
  throw fail([key], `${key} takes a date such as 2025-03-10, not ${show(value)}`);
}

function refuseSecrets(value: unknown, path: (string | number)[], at: (path: KeyPath) => string): void {
  if (value === null || typeof value !== 'object' || value instanceof Date) return;
  for (const [key, inner] of Object.entries(value)) {
    const here = [...path, Array.isArray(value) ? Number(key) : key];
    if (!Array.isArray(value) && SECRET_KEY.test(key))
      throw configError(
        `${at(here)}: ${key}: credentials and base URLs come from the environment or a dotenv file, never from the dataset file`,
      );
    refuseSecrets(inner, here, at);
  }
}
