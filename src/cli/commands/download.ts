import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { shardOf } from '../../core/chunks.js';
import type { MinutesVariant, PlanContext } from '../../core/commands/plans.js';
import { type Config, maxRowsOf, type Requirement, requireConfig } from '../../core/config.js';
import { marketZone, parseDateInput, startOfDay, todayIn } from '../../core/dates.js';
import { MdgetError, usageError } from '../../core/errors.js';
import { COMMAND_PARAMS, type ParamSpec } from '../../core/params.js';
import type { PlannedRequest } from '../../core/planned-request.js';
import { redactText, redactUrl } from '../../core/redact.js';
import type { ExtraParams } from '../../core/request-builders.js';
import type { OutputFormat } from '../../core/response-transform.js';
import type { BatchResult } from '../../core/run-types.js';
import { tempPathFor } from '../../core/writers/atomic-file.js';
import { isTemplate } from '../../core/writers/destination.js';
import { readEnvFile, resolveConfig } from '../config.js';
import type { Io } from '../io.js';
import { keyOf } from '../param-options.js';
import { withRunDeps } from '../run-deps.js';

export type DownloadCommand = keyof typeof COMMAND_PARAMS;

/** What commander hands an action: the parsed flags. */
export type Flags = Record<string, unknown>;

/** The run's plumbing that main provides. */
export interface RunContext {
  io: Io;
  signal: AbortSignal;
  now: Date;
  /** Secrets learned while resolving configuration; main redacts them from any message. */
  secrets: string[];
}

/** Reads --password-stdin's line and the dotenv file, then resolves and checks the configuration. */
export async function configFrom(
  flags: Flags,
  ctx: RunContext,
  needs: readonly Requirement[],
): Promise<Config> {
  if (flags.password !== undefined) {
    throw usageError(
      '--password is not accepted (it would show in ps and shell history): set MDGET_PASSWORD or use --password-stdin',
    );
  }
  const passwordFromStdin = flags.passwordStdin ? await readLine(ctx.io.stdin) : undefined;
  if (flags.passwordStdin && !passwordFromStdin)
    throw usageError('--password-stdin: standard input held no password line');
  const dotenv = await readEnvFile(flags.envFile as string | undefined, ctx.io.cwd);
  const { config } = resolveConfig(
    { ...(flags as object), ...(passwordFromStdin ? { passwordFromStdin } : {}) },
    ctx.io.env,
    dotenv.values,
    dotenv.path,
  );
  if (config.password) ctx.secrets.push(config.password);
  requireConfig(config, needs);
  return config;
}

async function readLine(stream: NodeJS.ReadableStream): Promise<string | undefined> {
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0];
  return line === undefined || line === '' ? undefined : line;
}

/** Positional symbols plus --symbols-file, checked: no blanks inside, no commas (lists are comma-joined). */
export async function symbolsFrom(
  args: readonly string[],
  flags: Flags,
  io: Io,
  what = 'symbol',
): Promise<string[]> {
  const symbols = [...args];
  const file = flags.symbolsFile as string | undefined;
  if (file !== undefined) {
    let text: string;
    try {
      text = file === '-' ? await readAll(io.stdin) : await readFile(file, 'utf8');
    } catch (error) {
      throw usageError(
        `--symbols-file ${file}: cannot read it (${(error as { code?: string }).code ?? 'error'})`,
      );
    }
    for (const line of text.split(/\r?\n/)) {
      const symbol = line.replace(/#.*/, '').trim();
      if (symbol) symbols.push(symbol);
    }
  }
  if (symbols.length === 0)
    throw usageError(`no ${what}s: give them as arguments or with --symbols-file <path>`);
  for (const symbol of symbols) {
    if (!/^[^\s,]{1,64}$/.test(symbol)) {
      throw usageError(`invalid ${what} '${symbol}': expected up to 64 characters without spaces or commas`);
    }
  }
  return symbols;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** --param key=value pairs; credentials and modelled parameters are refused with the flag to use instead. */
export function extraParamsFrom(flags: Flags, specs: readonly ParamSpec[]): ExtraParams {
  return ((flags.param as string[] | undefined) ?? []).map((pair) => {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : '';
    if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(key)) throw usageError(`--param '${pair}': expected key=value`);
    const lower = key.toLowerCase();
    if (lower === 'username' || lower === 'password') {
      throw usageError(`--param ${key}: credentials come from MDGET_USERNAME / MDGET_PASSWORD`);
    }
    const modelled = specs.find((s) => s.query === lower && s.query !== 'data');
    if (modelled) throw usageError(`--param ${key}: use --${modelled.flag} instead`);
    return [key, pair.slice(eq + 1)] as const;
  });
}

/** Typed parameter values from the flags of a table; dates parsed in the first symbol's market zone. */
export function paramsFrom(
  specs: readonly ParamSpec[],
  flags: Flags,
  zone: string,
  now: Date,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const value = flags[keyOf(spec)];
    if (value === undefined) continue;
    out[keyOf(spec)] =
      spec.kind === 'date' ? parseDateInput(String(value), `--${spec.flag}`, zone, now) : value;
  }
  return out;
}

function parseShard(value: unknown): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(String(value));
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw usageError(`--shard '${String(value)}': expected i/n with 1 ≤ i ≤ n, e.g. 2/4`);
  }
  return { index, count };
}

/** How each download command turns flags into a plan. */
export interface DownloadSpec {
  name: DownloadCommand;
  needs: readonly Requirement[];
  what?: string;
  plan(
    symbols: string[],
    params: Record<string, unknown>,
    flags: Flags,
    ctx: PlanContext,
    args: string[],
  ): Promise<PlannedRequest[]>;
}

/** Runs a download command end to end: checks, plan, dry run or batch, report, exit status via errors. */
export async function runDownload(
  spec: DownloadSpec,
  args: string[],
  flags: Flags,
  ctx: RunContext,
): Promise<void> {
  const { io } = ctx;
  const specs: readonly ParamSpec[] = COMMAND_PARAMS[spec.name];
  const shard = parseShard(flags.shard);
  const extra = extraParamsFrom(flags, specs);
  if (flags.symbolsFile === '-' && flags.passwordStdin) {
    throw usageError(
      '--symbols-file - and --password-stdin both want standard input: use a file for one of them',
    );
  }

  const symbols = await symbolsFrom(args, flags, io, spec.what);
  const zone = marketZone(symbols[0]!);
  const params = paramsFrom(specs, flags, zone, ctx.now);
  const format = flags.format as OutputFormat;
  const output = flags.output as string;
  if (flags.skipExisting && flags.force) throw usageError('--skip-existing and --force exclude each other');
  if (flags.symbolsFile === '-' && flags.passwordStdin) {
    throw usageError(
      '--symbols-file - and --password-stdin both want standard input: use a file for one of them',
    );
  }
  checkUpdateFlags(spec.name, flags, format, output);
  const config = await configFrom(flags, ctx, spec.needs);
  const maxRows = maxRowsOf(config);
  if (flags.report !== undefined && !flags.dryRun) await checkReportPath(String(flags.report));
  if (flags.tempDir !== undefined && !flags.dryRun) await checkTempDir(String(flags.tempDir));
  // --update fetches up to now unless told otherwise: the range ends with today's data.
  if (flags.update && params.end === undefined && spec.name !== 'events') {
    params.end = new Date(todayIn(zone, ctx.now).getTime() + 86_400_000);
  }
  const planContext = {
    config,
    now: ctx.now,
    extra,
    ...(flags.window === undefined ? {} : { windowMs: flags.window as number }),
    ...(maxRows === undefined ? {} : { maxRows }),
  };
  let plans = await spec.plan(symbols, params, flags, planContext, args);
  if (shard) plans = shardOf(plans, shard.index, shard.count);

  if (flags.dryRun) {
    for (const plan of plans) io.stdout.write(`${redactText(redactUrl(plan.url), ctx.secrets)}\n`);
    return;
  }
  const batch = {
    output,
    format,
    header: flags.header !== false,
    force: Boolean(flags.force),
    skipExisting: Boolean(flags.skipExisting),
    concurrency: flags.concurrency as number,
    fsync: flags.fsync !== false,
    update: Boolean(flags.update),
    ...(flags.tempDir === undefined ? {} : { tempDir: String(flags.tempDir) }),
    ...(maxRows === undefined ? {} : { maxRows }),
  };
  // Loaded here, not at the top: it pulls in undici, which --help and usage errors do not need.
  const { runBatch } = await import('../../core/batch.js');
  const result = await withRunDeps(flags, ctx, output, (deps) => runBatch(plans, batch, deps));
  if (flags.report !== undefined) await writeReport(String(flags.report), spec.name, result, ctx.secrets);
  if (result.failure && !result.stdoutClosed) throw result.failure;
}

/** --update needs a file output of a time series it can append to, in ascending order (no request sent). */
function checkUpdateFlags(
  command: DownloadCommand,
  flags: Flags,
  format: OutputFormat,
  output: string,
): void {
  if (!flags.update) return;
  if (command !== 'ticks' && command !== 'minutes' && command !== 'eod')
    throw usageError('--update applies to ticks, minutes and eod (time series)');
  if (output === '-') throw usageError('--update needs -o <file> or a template: stdout cannot be resumed');
  if (format === 'json')
    throw usageError('--update cannot append to a JSON array: use --format csv, ndjson or raw');
  if (flags.order === 'desc') throw usageError('--update resumes after the last row: it needs --order asc');
  if (flags.maxrecords !== undefined) throw usageError('--update and --maxrecords exclude each other');
  if (flags.start === undefined)
    throw usageError(
      '--update needs --start: the first day the file holds (rows it has are not fetched again)',
    );
  if (flags.force || flags.skipExisting) throw usageError('--update excludes --force and --skip-existing');
}

/** Refuses a --temp-dir that is not a writable directory (no request sent). */
async function checkTempDir(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory())
    throw usageError(`--temp-dir ${path}: not a directory (give an existing directory)`);
}

/** Refuses a --report path that cannot be written, before any request (exit 6). */
async function checkReportPath(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) throw new MdgetError('MDGET_IO', `cannot write --report ${path}: is a directory`);
  await mkdir(dirname(resolve(path)), { recursive: true }).catch((error: { code?: string }) => {
    throw new MdgetError('MDGET_IO', `cannot write --report ${path}: ${error.code ?? 'error'}`);
  });
}

async function writeReport(path: string, command: string, result: BatchResult, secrets: readonly string[]) {
  const text = redactText(`${JSON.stringify({ command, requests: result.results }, null, 2)}\n`, secrets);
  const temp = tempPathFor(path);
  try {
    await writeFile(temp, text);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new MdgetError(
      'MDGET_IO',
      `cannot write --report ${path}: ${(error as { code?: string }).code ?? 'error'}`,
    );
  }
}

/** The registry of download commands: which settings each needs and how it plans its requests. */
export const DOWNLOADS: Record<DownloadCommand, DownloadSpec> = {
  ticks: {
    name: 'ticks',
    needs: ['credentials', 'historical'],
    plan: async (symbols, params, _flags, ctx) =>
      (await import('../../core/commands/plans.js')).planTicks(symbols, params, ctx),
  },
  minutes: {
    name: 'minutes',
    needs: ['credentials', 'historical'],
    plan: async (symbols, params, flags, ctx) => {
      if (flags.nearby && flags.formT) throw usageError('--nearby and --form-t exclude each other');
      const variant: MinutesVariant = flags.nearby ? 'nearby' : flags.formT ? 'form-t' : 'minutes';
      return (await import('../../core/commands/plans.js')).planMinutes(symbols, params, variant, ctx);
    },
  },
  eod: {
    name: 'eod',
    needs: ['credentials', 'historical'],
    plan: async (symbols, params, flags, ctx) => {
      if (flags.nearest && flags.continue) throw usageError('--nearest and --continue exclude each other');
      return (await import('../../core/commands/plans.js')).planEod(symbols, params, ctx);
    },
  },
  events: {
    name: 'events',
    needs: ['credentials', 'historical'],
    plan: async (symbols, params, _flags, ctx) =>
      (await import('../../core/commands/plans.js')).planEvents(symbols, params, ctx),
  },
  daterange: {
    name: 'daterange',
    needs: ['credentials', 'historical'],
    plan: async (symbols, _params, flags, ctx) =>
      (await import('../../core/commands/plans.js')).planDateRange(
        flags.database as 'minutes' | 'eod',
        symbols,
        ctx,
      ),
  },
  futopts: {
    name: 'futopts',
    needs: ['credentials', 'futuresOptions'],
    what: 'root',
    plan: async (roots, params, flags, ctx) => {
      const date = params.date as Date | undefined;
      if (flags.json && flags.format !== 'raw' && flags.format !== 'json') {
        throw usageError(
          '--json streams the service JSON through unchanged: use --format raw or json with it',
        );
      }
      if (flags.json && roots.length > 1 && !isTemplate(flags.output as string)) {
        throw usageError('--json with several roots needs an output template such as -o "fo-{symbol}.json"');
      }
      return (await import('../../core/commands/plans.js')).planFuturesOptions(
        roots,
        date ? { date: startOfDay(date) } : {},
        Boolean(flags.json),
        ctx,
      );
    },
  },
};
