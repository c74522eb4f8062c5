import tls from 'node:tls';
import { Agent, type Dispatcher, Pool, ProxyAgent } from 'undici';
import { type ProxySettings, proxyRoute, rememberProxies } from './proxy-route.js';

/** Connections per origin when the caller does not say (a run's own are sized from its concurrency). */
const CONNECTIONS = 8;

/** How the run's dispatcher connects: timeouts, proxies, and certificate authorities to trust. */
export interface DispatcherOptions {
  timeoutMs: number;
  /** Sockets per origin: a run's settings size them (plan/transport-settings.ts). */
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
  const connections = options.connections ?? CONNECTIONS;
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
