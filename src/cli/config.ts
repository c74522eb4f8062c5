import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONFIG_VARIABLES, type Config } from '../core/model/config.js';
import { CONFIG_DEFAULTS } from '../core/model/defaults.js';
import { configError, reasonOf } from '../core/model/errors.js';
import type { ConfigFlags } from './flags.js';

/**
 * The configuration flags every command takes (docs/cli.md#configuration), and the password --password-stdin
 * read.
 */
export type ConfigSettings = ConfigFlags & { passwordFromStdin?: string };

export type Source = 'flag' | 'stdin' | 'environment' | 'dotenv' | 'default' | 'unset';

export interface ResolvedConfig {
  config: Config;
  sources: Record<keyof Config, Source>;
  /** The dotenv file read, if any. */
  envFile?: string;
}

const DEFAULTS: Partial<Config> = CONFIG_DEFAULTS;

/** Reads the dotenv file: --env-file must exist; the default `.env` is used only when present. */
export async function readEnvFile(
  flag: string | undefined,
  cwd: string,
): Promise<{ path?: string; values: Record<string, string> }> {
  const path = resolve(cwd, flag ?? '.env');
  try {
    const text = readFileSync(path);
    // dotenv is loaded only when there is a file to read (start-up time).
    const { parse } = await import('dotenv');
    return { path, values: parse(text) };
  } catch (error) {
    if (flag === undefined && (error as { code?: string }).code === 'ENOENT') return { values: {} };
    throw configError(`cannot read --env-file ${flag ?? '.env'}: ${reasonOf(error)}`);
  }
}

/**
 * flag > environment > dotenv file > default (docs/cli.md#configuration); the only place that reads the
 * environment.
 */
export function resolveConfig(
  flags: ConfigSettings,
  env: Record<string, string | undefined>,
  dotenv: Record<string, string>,
  envFile?: string,
): ResolvedConfig {
  const config: Config = {};
  const sources = {} as Record<keyof Config, Source>;
  const flagValues: Partial<Record<keyof Config, string | undefined>> = {
    username: flags.username,
    password: flags.passwordFromStdin,
    historicalUrl: flags.historicalUrl,
    futuresOptionsUrl: flags.futuresOptionsUrl,
    extrasUrl: flags.extrasUrl,
    exchangesPath: flags.exchangesPath,
    instrumentsUrl: flags.instrumentsUrl,
    maxRows: flags.maxRows === undefined ? undefined : String(flags.maxRows),
  };
  for (const key of Object.keys(CONFIG_VARIABLES) as (keyof Config)[]) {
    const name = CONFIG_VARIABLES[key];
    const candidates: [string | undefined, Source][] = [
      [flagValues[key], key === 'password' ? 'stdin' : 'flag'],
      [env[name], 'environment'],
      [dotenv[name], 'dotenv'],
      [DEFAULTS[key], 'default'],
    ];
    const hit = candidates.find(([value]) => value !== undefined && value !== '');
    sources[key] = hit ? hit[1] : 'unset';
    if (hit) config[key] = hit[0]!;
  }
  return { config, sources, ...(envFile ? { envFile } : {}) };
}

/** The variable that fixes mdget's "now", and what it means (the config table, `mdget config`). */
export const CLOCK_VARIABLE = {
  name: 'MDGET_NOW',
  meaning:
    'fixes "now" to an ISO 8601 instant (default: the machine\'s clock); `mdget emulator --set now=…` prints it',
} as const;

/**
 * The instant MDGET_NOW fixes, from the environment, else the dotenv file, with where it came from; undefined
 * for the machine's clock. Throws MDGET_CONFIG for a value that is not an instant.
 */
export function fixedClockFrom(
  env: Record<string, string | undefined>,
  dotenv: Record<string, string> = {},
): { now: Date; source: 'environment' | 'dotenv' } | undefined {
  const name = CLOCK_VARIABLE.name;
  const fromEnv = env[name] !== undefined && env[name] !== '';
  const value = fromEnv ? env[name] : dotenv[name];
  if (value === undefined || value === '') return undefined;
  const now = new Date(value);
  if (Number.isNaN(now.getTime()))
    throw configError(`${name}=${value}: not an instant; give ISO 8601, such as 2025-03-14T21:00:00Z`);
  return { now, source: fromEnv ? 'environment' : 'dotenv' };
}
