import { Agent, type Dispatcher } from 'undici';

/** Connections per origin when the caller does not say: enough for the default concurrency and more. */
const CONNECTIONS = 8;

/** Creates the one undici Agent of a run: keep-alive, timeouts, no redirects (credentials ride in URLs). */
export function createDispatcher(options: { timeoutMs: number; connections?: number }): Dispatcher {
  return new Agent({
    connections: Math.max(CONNECTIONS, options.connections ?? 0),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: Math.min(options.timeoutMs, 30_000),
  });
}
