/**
 * undici's Agent, imported without undici's index: the index also loads fetch, WebSocket, caches, mocks
 * and the SQLite cache store, ~9 MB of resident memory and ~40 ms of start-up that a download never uses
 * (issue 8: peak RSS of a 1 GB day). Requests go through the Agent's own dispatch() (response-body.ts).
 * The module is undici's own, in the version package.json pins; an upgrade must check the path still holds.
 */
import type { Agent as UndiciAgent } from 'undici';
import AgentModule from 'undici/lib/dispatcher/agent.js';

/** undici's Agent. */
export const Agent = AgentModule as unknown as typeof UndiciAgent;
