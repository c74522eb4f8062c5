import { COMMAND_PARAMS, optionKey } from '../model/params.js';
import { UTC_FORM } from '../time/time-zones.js';
import type { RunSettings } from './job.js';
import type { NameOf } from './names.js';
import { endpointOf, type PlannedRequest, targetOf } from './planned-request.js';

/**
 * How a file was made: everything that gives its rows their form (docs/cli.md#outputs).
 * Two runs with equal recipes write the same rows for the same window, so one may extend the other's file.
 * The window itself is not part of it: --update moves it.
 */
export interface Recipe {
  command: string;
  /** The endpoint page (a minutes variant has its own). */
  page: string;
  /** The output's symbols in the order their rows follow each other. */
  symbols: string[];
  /** The zone each symbol's service times are in (--source-tz, or the market's). */
  zones: string[];
  /** Every query parameter but the credentials, the symbol and the window, as sent. */
  query: Record<string, string>;
  format: string;
  compression?: string;
  header: boolean;
  gzip: boolean;
  columns?: string[];
  timeZone?: string;
}

const NOT_RECIPE = new Set(['username', 'password', 'symbol', 'symbols', 'root', 'start', 'end']);

/** The recipe of the output written by `requests` (in order) under `settings`. */
export function recipeOf(
  command: string,
  requests: readonly PlannedRequest[],
  settings: RunSettings,
): Recipe {
  const symbols: string[] = [];
  const zones: string[] = [];
  for (const request of requests) {
    if (symbols.includes(request.symbol)) continue;
    symbols.push(request.symbol);
    zones.push(request.zone);
  }
  const first = requests[0];
  const query: Record<string, string> = {};
  const target = first ? new URLSearchParams(targetOf(first).split('?')[1] ?? '') : [];
  for (const [key, value] of target) if (!NOT_RECIPE.has(key.toLowerCase())) query[key] = value;
  return {
    command,
    page: first ? endpointOf(first) : '',
    symbols,
    zones,
    query,
    format: settings.format,
    ...(settings.compression ? { compression: settings.compression } : {}),
    header: settings.header,
    gzip: settings.gzip,
    ...(settings.columns ? { columns: [...settings.columns] } : {}),
    ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
  };
}

/**
 * The first way `wanted` differs from `recorded`, as one line naming the option and what to do, or
 * undefined when the two make the same rows. `file` names the file, `names` the options.
 */
export function recipeDifference(
  recorded: Recipe,
  wanted: Recipe,
  file: string,
  names: NameOf,
): string | undefined {
  const over = `or pass ${names('force')} to start it over`;
  const setting = (option: string, was: unknown, now: unknown, shown = names(option, was ?? now)) => {
    const text = (value: unknown) =>
      value === true ? '' : ` ${Array.isArray(value) ? value.join(',') : value}`;
    if (was === undefined) return `${file} was written without ${shown}: drop ${shown}${text(now)}, ${over}`;
    if (now === undefined) return `${file} was written with ${shown}${text(was)}: add it, ${over}`;
    return `${file} was written with ${shown}${text(was)}, not${text(now)}: give ${shown}${text(was)}, ${over}`;
  };
  if (recorded.command !== wanted.command || recorded.page !== wanted.page)
    return `${file} was written by ${recorded.command} (${recorded.page}), not ${wanted.command} (${wanted.page}): give another ${names('output')}, ${over}`;
  if (recorded.symbols.join(',') !== wanted.symbols.join(','))
    return `${file} holds ${recorded.symbols.join(',')}, this run asks for ${wanted.symbols.join(',')}: give the same symbols in the same order, or another ${names('output')}, ${over}`;
  if (recorded.zones.join(',') !== wanted.zones.join(','))
    return setting('sourceTimeZone', recorded.zones.join(','), wanted.zones.join(','));
  for (const key of new Set([...Object.keys(recorded.query), ...Object.keys(wanted.query)])) {
    const was = recorded.query[key];
    const now = wanted.query[key];
    if (was === now) continue;
    const spec = COMMAND_PARAMS[recorded.command as keyof typeof COMMAND_PARAMS]?.find(
      (p) => p.query === key,
    );
    if (!spec) return setting('extra', was && `${key}=${was}`, now && `${key}=${now}`);
    const flag = 'sent' in spec;
    return setting(optionKey(spec.flag), flag && was ? true : was, flag && now ? true : now);
  }
  for (const option of ['format', 'compression'] as const)
    if (recorded[option] !== wanted[option]) return setting(option, recorded[option], wanted[option]);
  // a flag is shown alone (--gzip, --utc, --no-header); --tz with its zone
  const on = (value: boolean) => (value ? true : undefined);
  const zone = (value: string | undefined) => (value === UTC_FORM ? true : value);
  if (recorded.gzip !== wanted.gzip) return setting('gzip', on(recorded.gzip), on(wanted.gzip));
  if (recorded.timeZone !== wanted.timeZone) {
    const shown = names('timeZone', recorded.timeZone ?? wanted.timeZone);
    return setting('timeZone', zone(recorded.timeZone), zone(wanted.timeZone), shown);
  }
  if (recorded.header !== wanted.header) return setting('header', on(!recorded.header), on(!wanted.header));
  if ((recorded.columns ?? []).join(',') !== (wanted.columns ?? []).join(','))
    return setting('columns', recorded.columns, wanted.columns);
  return undefined;
}
