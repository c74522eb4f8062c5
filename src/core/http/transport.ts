import type { Dispatcher } from 'undici';
import { createDispatcher } from './agent.js';
import type { ProxySettings } from './proxy-route.js';
import { RateLimiter } from './rate-limit.js';
import { type RetryPolicy, retryPolicy } from './retry.js';

/** The transport settings a run resolved (plan/transport-settings.ts), as this layer reads them. */
export interface TransportSizes {
  retries: number;
  timeoutMs: number;
  rate?: number;
  sockets: number;
}

/** How requests reach the service besides the settings: proxies and CAs, or a dispatcher of the caller's. */
export interface Route {
  proxy?: ProxySettings;
  ca?: readonly string[];
  /** The caller's own dispatcher: used as it is, never closed here. */
  dispatcher?: Dispatcher;
}

/** What a run's requests go through, built from its settings; the dispatcher made here ends with it. */
export interface OpenTransport {
  dispatcher: Dispatcher;
  retry: RetryPolicy;
  limiter: RateLimiter;
  /** Lets requests under way finish, then closes the dispatcher made here (a caller's is left open). */
  close(): Promise<void>;
  /** Ends the dispatcher made here at once, requests under way included (the run is over). */
  destroy(): Promise<void>;
}

/** The dispatcher (sockets and timeout), the retry policy and the rate limiter of one run's settings. */
export function openTransport(settings: TransportSizes, route: Route = {}): OpenTransport {
  const own = route.dispatcher
    ? undefined
    : createDispatcher({
        timeoutMs: settings.timeoutMs,
        connections: settings.sockets,
        ...(route.proxy ? { proxy: route.proxy } : {}),
        ...(route.ca?.length ? { ca: route.ca } : {}),
      });
  return {
    dispatcher: route.dispatcher ?? (own as Dispatcher),
    retry: retryPolicy(settings.retries),
    limiter: new RateLimiter(settings.rate),
    close: async () => {
      await own?.close();
    },
    destroy: async () => {
      await own?.destroy().catch(() => {});
    },
  };
}
