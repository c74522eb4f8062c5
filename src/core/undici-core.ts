/**
 * undici's Agent and request(), imported without undici's index: the index also loads fetch, WebSocket,
 * caches, mocks and the SQLite cache store, ~9 MB of resident memory and ~40 ms of start-up that a
 * download never uses (issue 8: peak RSS of a 1 GB day). These two modules are undici's own, in the
 * version package.json pins; a major upgrade must check that the paths still hold (test/core covers them).
 */
import type { Dispatcher, Agent as UndiciAgent } from 'undici';
import api from 'undici/lib/api/index.js';
import AgentModule from 'undici/lib/dispatcher/agent.js';

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method?: Dispatcher.HttpMethod;
};

/** undici's Agent. */
export const Agent = AgentModule as unknown as typeof UndiciAgent;

/** undici's request() on `dispatcher`: what `request(url, { dispatcher })` of its index does. */
export function request(
  url: URL,
  dispatcher: Dispatcher,
  options: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  const call = (
    api as { request: (this: Dispatcher, o: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> }
  ).request;
  return call.call(dispatcher, {
    ...options,
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: options.method ?? 'GET',
  });
}
