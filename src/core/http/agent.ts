import tls from 'node:tls';
import { Agent, type Dispatcher, Pool, ProxyAgent } from 'undici';
import { type ProxySettings, proxyRoute, rememberProxies } from './proxy-route.js';

/** Connections per origin when the caller does not say: enough for the default concurrency and more. */
const CONNECTIONS = 8;

/** How the run's dispatcher connects: timeouts, proxies, and certificate authorities to trust. */
export interface DispatcherOptions {
  timeoutMs: number;
  connections?: number;
  proxy?: ProxySettings;
  /** PEM certificates trusted besides Node's own (a private CA); verification is never turned off. */
  ca?: readonly string[];
}

/**
 * Creates the one undici dispatcher of a run: keep-alive, timeouts, no redirects (credentials ride in
 * URLs). With proxies, each origin gets a direct pool or an undici ProxyAgent as proxyRoute decides:
 * http:// targets in absolute form, https:// targets through CONNECT.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const connections = Math.max(CONNECTIONS, options.connections ?? 0);
  const timeouts = { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs };
  const connectTimeout = Math.min(options.timeoutMs, 30_000);
  const trust = options.ca?.length ? { ca: [...trustedRoots(), ...options.ca] } : undefined;
  const { proxy } = options;
  const viaProxy = (uri: string): Dispatcher =>
    new ProxyAgent({
      uri,
      proxyTunnel: false,
      ...(trust ? { requestTls: trust, proxyTls: trust } : {}),
      // undici's default pools would drop the run's timeouts and connection count
      factory: (target: string | URL, opts: object) =>
        new Pool(target, { connections, ...timeouts, connectTimeout, ...opts }),
      ...timeouts,
      connections,
    });
  const agent = new Agent({
    connections,
    ...timeouts,
    connectTimeout,
    ...(trust ? { connect: trust } : {}),
    ...(proxy
      ? {
          factory: (origin: string | URL, opts: Agent.Options) => {
            const route = proxyRoute(new URL(String(origin)), proxy);
            return route.proxy ? viaProxy(route.proxy) : new Pool(origin, opts);
          },
        }
      : {}),
  });
  if (proxy) rememberProxies(agent, proxy);
  return agent;
}

/** Node's trusted roots (with NODE_EXTRA_CA_CERTS where this Node can list them): `ca` replaces them. */
function trustedRoots(): readonly string[] {
  const list = (tls as { getCACertificates?: (which: string) => string[] }).getCACertificates;
  return list ? list('default') : tls.rootCertificates;
}
