import { BlockList, isIP } from 'node:net';
import { type MdgetError, usageError } from '../model/errors.js';
import { redactUrl } from '../model/redact.js';

/**
 * The proxies a client's requests go through, as curl reads them (docs/cli.md#proxies): one for http://
 * targets, one for https:// targets (no fallback from one to the other), and the hosts that go direct.
 */
export interface ProxySettings {
  /** The proxy for http:// targets (HTTP_PROXY): requests sent to it in absolute form. */
  http?: string;
  /** The proxy for https:// targets (HTTPS_PROXY): a CONNECT tunnel through it. */
  https?: string;
  /** NO_PROXY: host names, domains (`.example.com`), IPs, CIDR ranges, `host:port`, or `*` for all. */
  noProxy?: string;
}

/** How a request to one URL travels: through `proxy`, or direct (`bypass` names the NO_PROXY entry that said so). */
export interface ProxyRoute {
  proxy?: string;
  bypass?: string;
}

/** The route of a request to `url` under `settings`: the one decision the dispatcher and `mdget config` share. */
export function proxyRoute(url: URL, settings: ProxySettings): ProxyRoute {
  const proxy = url.protocol === 'https:' ? settings.https : settings.http;
  if (!proxy) return {};
  const bypass = noProxyEntry(url, settings.noProxy ?? '');
  return bypass === undefined ? { proxy } : { bypass };
}

/** The proxies of each dispatcher createDispatcher made, so that a failure can name the proxy it went through. */
const ROUTES = new WeakMap<object, ProxySettings>();

/** Records the proxies `dispatcher` routes by (agent.ts). */
export function rememberProxies(dispatcher: object, settings: ProxySettings): void {
  ROUTES.set(dispatcher, settings);
}

/** The proxy a request to `url` went through on `dispatcher`, if createDispatcher made it with proxies. */
export function proxyOf(dispatcher: object, url: URL): string | undefined {
  const settings = ROUTES.get(dispatcher);
  return settings ? proxyRoute(url, settings).proxy : undefined;
}

/** The NO_PROXY entry that matches `url`'s host (and port, when the entry names one), if any. */
function noProxyEntry(url: URL, list: string): string | undefined {
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const hostIsIp = isIP(host) !== 0;
  for (const entry of list.split(/[\s,]+/)) {
    if (!entry) continue;
    if (entry === '*') return entry;
    const parts = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? /^([^:]+)(?::(\d+))?$/.exec(entry);
    // a bare IPv6 address (colons, no brackets) has no port
    const name = (parts?.[1] ?? entry).toLowerCase().replace(/^\*?\./, '');
    if (parts?.[2] !== undefined && Number(parts[2]) !== port) continue;
    if (hostIsIp) {
      if (name === host || inRange(host, name)) return entry;
    } else if (host === name || host.endsWith(`.${name}`)) return entry;
  }
  return undefined;
}

/** True when `ip` lies in the CIDR range `range` (`10.0.0.0/8`, `fd00::/8`). */
function inRange(ip: string, range: string): boolean {
  const [base, bits] = range.split('/');
  const family = base === undefined ? 0 : isIP(base);
  if (!base || bits === undefined || family === 0 || family !== isIP(ip) || !/^\d+$/.test(bits)) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  try {
    list.addSubnet(base, Number(bits), type);
  } catch {
    return false;
  }
  return list.check(ip, type);
}

/**
 * A proxy URL checked and completed (`proxy:3128` → `http://proxy:3128`, as curl reads it), or a usage
 * error naming `name` (the option or variable it came from) with the credentials redacted.
 */
export function checkProxyUrl(
  value: string,
  name: string,
  fail: (message: string) => MdgetError = usageError,
): string {
  const text = value.trim();
  const full = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  // no `scheme://…@` in the text: redaction would take it for credentials
  const form = 'expected http://host:port, with user:password@ before the host if the proxy asks';
  let url: URL;
  try {
    url = new URL(full);
  } catch {
    throw fail(`${name} '${redactUrl(text)}' is not a URL: ${form}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw fail(`${name} '${redactUrl(text)}': ${url.protocol}// proxies are not supported: ${form}`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw fail(`${name} '${redactUrl(text)}' must not carry a path or query: ${form}`);
  return url.origin === 'null' ? full : `${url.protocol}//${userinfo(url)}${url.host}`;
}

function userinfo(url: URL): string {
  if (!url.username && !url.password) return '';
  return `${url.username}${url.password ? `:${url.password}` : ''}@`;
}

/** The proxy's password (decoded), for the secrets every message is redacted with. */
export function proxySecrets(settings: ProxySettings): string[] {
  const out: string[] = [];
  for (const proxy of [settings.http, settings.https]) {
    if (!proxy) continue;
    try {
      const { password } = new URL(proxy);
      if (password) out.push(decodeURIComponent(password));
    } catch {
      // checkProxyUrl refused it before any request
    }
  }
  return out;
}

/**
 * The library's `proxy` option as settings, every URL checked (MDGET_USAGE naming `proxy`): a string is
 * the proxy of every request, as curl's `--proxy`.
 */
export function proxySettingsOf(input: string | ProxySettings): ProxySettings {
  const given = typeof input === 'string' ? { http: input, https: input } : input;
  const out: ProxySettings = {};
  if (given.http) out.http = checkProxyUrl(given.http, typeof input === 'string' ? 'proxy' : 'proxy.http');
  if (given.https)
    out.https = checkProxyUrl(given.https, typeof input === 'string' ? 'proxy' : 'proxy.https');
  if (given.noProxy) out.noProxy = given.noProxy;
  return out;
}
