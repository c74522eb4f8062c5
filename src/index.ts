// Public library API (issue 11): a client, its types and the error class, nothing else. Importing it has
// no side effects (STYLE §3; test/unit/architecture.test.ts).
export type {
  Client,
  ClientOptions,
  DownloadOptions,
  MarketRecord,
  Query,
} from './core/client.js';
export { createClient } from './core/client.js';
export type { MinutesVariant } from './core/commands/plans.js';
export type { InstrumentsResult } from './core/commands/reference.js';
export type { Config } from './core/config.js';
export type { ErrorCode, MdgetErrorOptions } from './core/errors.js';
export { isMdgetError, MdgetError } from './core/errors.js';
export type { PlannedRequest } from './core/planned-request.js';
export type { Exchange } from './core/reference/exchanges.js';
export type {
  EodParams,
  EventsParams,
  ExtraParams,
  MinutesParams,
  TicksParams,
} from './core/request-builders.js';
export type {
  BatchResult,
  PlanEvent,
  ProgressEvent,
  RequestResult,
  RequestStatus,
} from './core/run-types.js';
