import { CONFIG_VARIABLES, type Config } from '../../core/config.js';
import { REDACTED, redactText } from '../../core/redact.js';
import { sqliteBackend } from '../../core/reference/sqlite-backend.js';
import { readEnvFile, resolveConfig } from '../config.js';
import type { Flags, RunContext } from './download.js';
import { configFrom } from './download.js';

/** `mdget config`: each setting, its value (password redacted) and where it came from. */
export async function runConfig(flags: Flags, ctx: RunContext): Promise<void> {
  await configFrom(flags, ctx, []); // same checks as a download: --password is refused, --env-file must exist
  const dotenv = await readEnvFile(flags.envFile as string | undefined, ctx.io.cwd);
  const { config, sources } = resolveConfig(flags as object, ctx.io.env, dotenv.values, dotenv.path);
  if (flags.passwordStdin && ctx.secrets.length > 0) sources.password = 'stdin';
  const rows = (Object.keys(CONFIG_VARIABLES) as (keyof Config)[]).map((key) => {
    const present =
      key === 'password'
        ? config.password !== undefined || Boolean(flags.passwordStdin)
        : config[key] !== undefined;
    const value = !present
      ? '(unset)'
      : key === 'password'
        ? REDACTED
        : redactText(String(config[key]), ctx.secrets);
    const source = sources[key] === 'dotenv' ? `dotenv ${dotenv.path}` : sources[key];
    return [CONFIG_VARIABLES[key], value, source] as const;
  });
  const width = Math.max(...rows.map(([name]) => name.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  for (const [name, value, source] of rows) {
    ctx.io.stdout.write(`${name.padEnd(width)}  ${value.padEnd(valueWidth)}  ${source}\n`);
  }
  // A single binary carries its own Node (issue 12): say which one runs, and which SQLite module it uses.
  if (flags.verbose) {
    const sea = (process.getBuiltinModule('node:sea') as { isSea(): boolean } | undefined)?.isSea() ?? false;
    const runtime = `Node ${process.version}${sea ? ' (single executable)' : ''}`;
    ctx.io.stderr.write(`mdget: ${runtime}, SQLite through ${sqliteBackend()}\n`);
  }
}
