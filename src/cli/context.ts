/**
 * What every command's run gets from main (streams, the abort signal, the clock, the secrets to redact),
 * and the configuration every command resolves the same way: flags > environment > dotenv > defaults.
 */
import { proxySecrets } from '../core/http/proxy-route.js';
import {
  CONFIG_VARIABLES,
  type Config,
  checkBaseUrl,
  isBaseUrl,
  type Requirement,
  requireConfig,
} from '../core/model/config.js';
import { configError, usageError } from '../core/model/errors.js';
import { fixedClockFrom, readEnvFile, resolveConfig } from './config.js';
import { CREDENTIAL_URLS, envFileWarning, plainHttpWarning } from './credential-warnings.js';
import { flagNames } from './flag-names.js';
import type { ConfigFlags, OptionFlags } from './flags.js';
import type { Io } from './io.js';
import type { Log } from './log.js';
import { type RouteSettings, resolveTransport } from './transport.js';

/** The run's plumbing that main provides. */
export interface RunContext {
  io: Io;
  signal: AbortSignal;
  /** "now": the machine's clock at the start, or the instant MDGET_NOW fixes. */
  now: Date;
  /** The instant now as the run goes on: MDGET_NOW when set (fixed), else the system clock. */
  clock(): Date;
  /** True when MDGET_NOW fixed `now` (environment, or the dotenv file once configFrom read it). */
  clockFixed?: boolean;
  /** Secrets learned while resolving configuration; main redacts them from any message. */
  secrets: string[];
  /** Where every stderr line goes: text or JSON lines (log.ts). */
  log: Log;
  /** What the run was: mdget's version and its arguments, for the report. */
  version: string;
  argv: readonly string[];
  /** The exit status of a run that ends with `error` (none: 0), as main will map it. */
  exitCodeOf(error: unknown): number;
  /** Proxies and trusted CAs, resolved with the configuration (transport.ts); read by run-deps.ts. */
  transport?: RouteSettings;
}

/** The flags the run plumbing reads (run-deps.ts): network, progress and messages. */
export type Flags = OptionFlags<
  'timeout' | 'concurrency' | 'retries' | 'rate' | 'progress' | 'quiet' | 'verbose'
>;

/** The configuration flags as a command receives them, --password-stdin included. */
export type ConfigInput = ConfigFlags & { quiet?: boolean };

/** Reads --password-stdin's line and the dotenv file, then resolves and checks the configuration. */
export async function configFrom(
  flags: ConfigInput,
  ctx: RunContext,
  needs: readonly Requirement[] = [],
): Promise<Config> {
  if (flags.password !== undefined) {
    throw usageError(
      '--password is not accepted (it would show in ps and shell history): set MDGET_PASSWORD or use --password-stdin',
    );
  }
  const passwordFromStdin = flags.passwordStdin ? await readLine(ctx.io.stdin) : undefined;
  // No password is a missing credential (exit 3), whether the variable is unset or stdin was empty.
  if (flags.passwordStdin && !passwordFromStdin)
    throw configError('--password-stdin: standard input held no password line: pipe the password to it');
  const dotenv = await readEnvFile(flags.envFile, ctx.io.cwd);
  // the environment's MDGET_NOW was applied by main; a dotenv file's (`mdget emulator` prints one) is now
  const clock = fixedClockFrom(ctx.io.env, dotenv.values);
  if (clock?.source === 'dotenv') Object.assign(ctx, { now: clock.now, clockFixed: true });
  const { config, sources } = resolveConfig(
    { ...flags, ...(passwordFromStdin ? { passwordFromStdin } : {}) },
    ctx.io.env,
    dotenv.values,
    dotenv.path,
  );
  if (config.password) ctx.secrets.push(config.password);
  // a URL given as a flag is named by its flag; the library's check names the variable
  for (const key of Object.keys(CONFIG_VARIABLES) as (keyof Config)[]) {
    const value = config[key];
    if (isBaseUrl(key) && sources[key] === 'flag' && value) checkBaseUrl(value, flagNames(key));
  }
  const first = ctx.transport === undefined;
  const transport = resolveTransport(flags.proxy, ctx.io.env, dotenv.values, dotenv.path, ctx.io.cwd);
  ctx.transport = transport;
  ctx.secrets.push(...proxySecrets(transport.proxy));
  requireConfig(config, needs);
  // A download names no needs (its plan checks them): every base URL that takes credentials counts then.
  const urls =
    needs.length === 0
      ? CREDENTIAL_URLS
      : CREDENTIAL_URLS.filter(
          (key) =>
            needs.includes('credentials') &&
            needs.includes(key === 'historicalUrl' ? 'historical' : 'futuresOptions'),
        );
  const httpWarning = plainHttpWarning(config, urls, transport);
  // said by run-deps.ts, once, when requests are about to be sent (not for a dry run)
  if (httpWarning) transport.httpWarning = httpWarning;
  const envWarning = envFileWarning(dotenv.path, dotenv.values);
  if (first && !flags.quiet && envWarning)
    ctx.io.stderr.write(`${ctx.io.color.yellow(`mdget: ${envWarning}`)}\n`);
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
