/**
 * The two warnings about credentials that could leak (docs/cli.md#credentials): a password sent over
 * http:// across a network, and a dotenv file holding the password that other users can read.
 */
import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { proxyRoute } from '../core/http/proxy-route.js';
import { CONFIG_VARIABLES, type Config } from '../core/model/config.js';
import { redactUrl } from '../core/model/redact.js';
import type { RouteSettings } from './transport.js';

/** The base URLs whose requests carry the user name and password in their query (docs/service.md#requests). */
export const CREDENTIAL_URLS = ['historicalUrl', 'futuresOptionsUrl'] as const;

/**
 * The warning for credentials that would cross a network unencrypted: an http:// base URL whose host, or
 * whose proxy, is not loopback (a proxy forwards plain HTTP as it is). Undefined when none would, or when
 * MDGET_ALLOW_HTTP=1 says the service offers nothing else.
 */
export function plainHttpWarning(
  config: Config,
  keys: readonly (typeof CREDENTIAL_URLS)[number][],
  transport: RouteSettings,
): string | undefined {
  if (transport.allowHttp) return undefined;
  const hosts = new Set<string>();
  const names: string[] = [];
  for (const key of keys) {
    const value = config[key];
    if (!value) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue; // requireConfig says what is wrong with it
    }
    if (url.protocol !== 'http:') continue;
    const { proxy } = proxyRoute(url, transport.proxy);
    const exposed = [
      ...(isLoopback(url.hostname) ? [] : [url.host]),
      ...(proxy && !isLoopback(new URL(proxy).hostname)
        ? [`proxy ${redactUrl(proxy).replace(/\/$/, '')}`]
        : []),
    ];
    for (const host of exposed) hosts.add(host);
    if (exposed.length > 0) names.push(CONFIG_VARIABLES[key]);
  }
  if (hosts.size === 0) return undefined;
  return `warning: the password goes unencrypted over http:// to ${[...hosts].join(', ')} (${names.join(', ')}): use https:// (MDGET_ALLOW_HTTP=1 silences this)`;
}

/** The warning for a dotenv file that holds MDGET_PASSWORD and is readable by group or others. */
export function envFileWarning(path: string | undefined, values: Record<string, string>): string | undefined {
  // Windows has no such mode bits: its files are guarded by ACLs
  if (!path || !values.MDGET_PASSWORD || process.platform === 'win32') return undefined;
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return undefined;
  }
  if ((mode & 0o044) === 0) return undefined;
  return `warning: ${path} holds MDGET_PASSWORD and other users can read it: chmod 600 ${path}`;
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1: names that never leave the machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}
