import { proxyRoute } from '../../core/http/proxy-route.js';
import { CONFIG_VARIABLES, type Config } from '../../core/model/config.js';
import { REDACTED, redactText, redactUrl } from '../../core/model/redact.js';
import { CLOCK_VARIABLE, fixedClockFrom, readEnvFile, resolveConfig } from '../config.js';
import { configFrom, type RunContext } from '../context.js';
import { CREDENTIAL_URLS, plainHttpWarning } from '../credential-warnings.js';
import type { FlagsOf } from '../flags.js';
import type { RouteSettings } from '../transport.js';

/** `mdget config`: each setting, its value (password redacted) and where it came from. */
export async function runConfig(flags: FlagsOf<'config'>, ctx: RunContext): Promise<void> {
  await configFrom(flags, ctx); // same checks as a download: --password is refused, --env-file must exist
  const dotenv = await readEnvFile(flags.envFile, ctx.io.cwd);
  const { config, sources } = resolveConfig(flags, ctx.io.env, dotenv.values, dotenv.path);
  if (flags.passwordStdin && ctx.secrets.length > 0) sources.password = 'stdin';
  const rows: (readonly [string, string, string])[] = (Object.keys(CONFIG_VARIABLES) as (keyof Config)[]).map(
    (key) => {
      const source = sources[key] === 'dotenv' ? `dotenv ${dotenv.path}` : sources[key];
      return [
        CONFIG_VARIABLES[key],
        shown(key, config, Boolean(flags.passwordStdin), ctx.secrets),
        source,
      ] as const;
    },
  );
  const clock = fixedClockFrom(ctx.io.env, dotenv.values);
  rows.push([
    CLOCK_VARIABLE.name,
    clock ? clock.now.toISOString() : '(unset)',
    clock ? (clock.source === 'dotenv' ? `dotenv ${dotenv.path}` : clock.source) : 'unset',
  ]);
  // configFrom resolved it from the same flags, environment and file
  const transport = ctx.transport as RouteSettings;
  rows.push(...proxyRows(config, transport));
  const width = Math.max(...rows.map(([name]) => name.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  for (const [name, value, source] of rows) {
    ctx.io.stdout.write(`${name.padEnd(width)}  ${value.padEnd(valueWidth)}  ${source}\n`);
  }
  const warning = plainHttpWarning(config, CREDENTIAL_URLS, transport);
  if (warning && !flags.quiet) ctx.io.stderr.write(`${ctx.io.color.yellow(`mdget: ${warning}`)}\n`);
  // A single binary carries its own Node: say which one runs, and which SQLite module it uses.
  if (flags.verbose) {
    const { sqliteBackend } = await import('../../core/reference/sqlite-backend.js');
    const sea = (process.getBuiltinModule('node:sea') as { isSea(): boolean } | undefined)?.isSea() ?? false;
    const runtime = `Node ${process.version}${sea ? ' (single executable)' : ''}`;
    ctx.io.stderr.write(`mdget: ${runtime}, SQLite through ${sqliteBackend()}\n`);
  }
}

/** The route of each base URL that is set: its proxy and where that came from, or direct and why. */
function proxyRows(config: Config, transport: RouteSettings): (readonly [string, string, string])[] {
  const keys = ['historicalUrl', 'futuresOptionsUrl', 'extrasUrl', 'instrumentsUrl'] as const;
  return keys.flatMap((key) => {
    const value = config[key];
    if (!value || !URL.canParse(value)) return [];
    const url = new URL(value);
    const { proxy, bypass } = proxyRoute(url, transport.proxy);
    const scheme = url.protocol === 'https:' ? 'https' : 'http';
    const name = `proxy for ${CONFIG_VARIABLES[key]}`;
    if (proxy) return [[name, redactUrl(proxy).replace(/\/$/, ''), transport.sources[scheme] ?? '']] as const;
    if (bypass) return [[name, 'direct', `NO_PROXY entry ${bypass} (${transport.sources.noProxy})`]] as const;
    return [[name, 'direct', `no ${scheme}:// proxy set`]] as const;
  });
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
