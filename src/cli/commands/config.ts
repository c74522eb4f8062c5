import { CONFIG_VARIABLES, type Config } from '../../core/model/config.js';
import { REDACTED, redactText } from '../../core/model/redact.js';
import { CLOCK_VARIABLE, fixedClockFrom, readEnvFile, resolveConfig } from '../config.js';
import { configFrom, type RunContext } from '../context.js';
import type { FlagsOf } from '../flags.js';

/** `mdget config`: each setting, its value (password redacted) and where it came from. */
export async function runConfig(flags: FlagsOf<'config'>, ctx: RunContext): Promise<void> {
  await configFrom(flags, ctx); // same checks as a download: --password is refused, --env-file must exist
  const dotenv = await readEnvFile(flags.envFile, ctx.io.cwd);
  const { config, sources } = resolveConfig(flags, ctx.io.env, dotenv.values, dotenv.path);
  if (flags.passwordStdin && ctx.secrets.length > 0) sources.password = 'stdin';
  const rows = (Object.keys(CONFIG_VARIABLES) as (keyof Config)[]).map((key): [string, string, string] => {
    const source = sources[key] === 'dotenv' ? `dotenv ${dotenv.path}` : sources[key];
    return [CONFIG_VARIABLES[key], shown(key, config, Boolean(flags.passwordStdin), ctx.secrets), source];
  });
  const clock = fixedClockFrom(ctx.io.env, dotenv.values);
  rows.push([
    CLOCK_VARIABLE.name,
    clock ? clock.now.toISOString() : '(unset)',
    clock ? (clock.source === 'dotenv' ? `dotenv ${dotenv.path}` : clock.source) : 'unset',
  ]);
  const width = Math.max(...rows.map(([name]) => name.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  for (const [name, value, source] of rows) {
    ctx.io.stdout.write(`${name.padEnd(width)}  ${value.padEnd(valueWidth)}  ${source}\n`);
  }
  // A single binary carries its own Node: say which one runs, and which SQLite module it uses.
  if (flags.verbose) {
    const { sqliteBackend } = await import('../../core/reference/sqlite-backend.js');
    const sea = (process.getBuiltinModule('node:sea') as { isSea(): boolean } | undefined)?.isSea() ?? false;
    const runtime = `Node ${process.version}${sea ? ' (single executable)' : ''}`;
    ctx.io.stderr.write(`mdget: ${runtime}, SQLite through ${sqliteBackend()}\n`);
  }
}

/**
 * A setting as `mdget config` shows it: the password as ***, the user name as it is (a user name
 * that equals the password is still a user name), URLs with any secret they hold redacted.
 */
function shown(
  key: keyof Config,
  config: Config,
  passwordStdin: boolean,
  secrets: readonly string[],
): string {
  if (key === 'password') return config.password !== undefined || passwordStdin ? REDACTED : '(unset)';
  const value = config[key];
  if (value === undefined) return '(unset)';
  return key === 'username' ? value : redactText(value, secrets);
}
