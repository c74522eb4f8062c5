/**
 * How the CLI's requests travel (docs/cli.md#proxies, docs/cli.md#tls): the proxies from --proxy, the
 * environment or the dotenv file, curl's way, and the private CA of NODE_EXTRA_CA_CERTS; each value with
 * where it came from, for `mdget config`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkProxyUrl, type ProxySettings } from '../core/http/proxy-route.js';
import { configError, usageError } from '../core/model/errors.js';

/** The run's transport settings, resolved once by configFrom (context.ts). */
export interface RouteSettings {
  proxy: ProxySettings;
  /** Where each proxy setting came from: `--proxy`, `environment HTTPS_PROXY`, `dotenv <file> no_proxy`. */
  sources: Partial<Record<keyof ProxySettings, string>>;
  /** PEM certificates to trust besides Node's own. */
  ca: string[];
  /** MDGET_ALLOW_HTTP=1: credentials over http:// to another host draw no warning. */
  allowHttp: boolean;
  /** The warning a run that sends requests prints first (credential-warnings.ts), if any. */
  httpWarning?: string;
}

/** The variables of each proxy setting, lower case first as curl reads them. */
const PROXY_VARIABLES: Record<keyof ProxySettings, readonly string[]> = {
  http: ['http_proxy', 'HTTP_PROXY'],
  https: ['https_proxy', 'HTTPS_PROXY'],
  noProxy: ['no_proxy', 'NO_PROXY'],
};

/**
 * The transport of a run: `--proxy <url>` for every request (`--proxy ''` or `--no-proxy`: none) >
 * environment > dotenv file, per variable; NO_PROXY applies to --proxy too, as in curl.
 */
export function resolveTransport(
  proxyFlag: string | boolean | undefined,
  env: Record<string, string | undefined>,
  dotenv: Record<string, string>,
  envFile: string | undefined,
  cwd: string,
): RouteSettings {
  const proxy: ProxySettings = {};
  const sources: RouteSettings['sources'] = {};
  const lookup = (names: readonly string[]): [string, string] | undefined => {
    for (const name of names) if (env[name]) return [env[name], `environment ${name}`];
    for (const name of names) if (dotenv[name]) return [dotenv[name], `dotenv ${envFile} ${name}`];
    return undefined;
  };
  const off = proxyFlag === false || proxyFlag === '';
  for (const key of ['http', 'https'] as const) {
    if (off) continue;
    const found: [string, string] | undefined =
      typeof proxyFlag === 'string' ? [proxyFlag, '--proxy'] : lookup(PROXY_VARIABLES[key]);
    if (!found) continue;
    const name = found[1].replace(/^(environment|dotenv \S+) /, '');
    proxy[key] = checkProxyUrl(found[0], name, name === '--proxy' ? usageError : configError);
    sources[key] = found[1];
  }
  const noProxy = lookup(PROXY_VARIABLES.noProxy);
  if (noProxy && !off) {
    proxy.noProxy = noProxy[0];
    sources.noProxy = noProxy[1];
  }
  const caFile = env.NODE_EXTRA_CA_CERTS || dotenv.NODE_EXTRA_CA_CERTS;
  const allow = env.MDGET_ALLOW_HTTP ?? dotenv.MDGET_ALLOW_HTTP;
  return { proxy, sources, ca: caFile ? [readCa(resolve(cwd, caFile))] : [], allowHttp: allow === '1' };
}

function readCa(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw configError(
      `NODE_EXTRA_CA_CERTS ${path}: cannot read it (${code}): name a PEM file of CA certificates`,
    );
  }
}
