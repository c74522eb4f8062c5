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
export type { Config } from './core/model/config.js';
export type { ErrorCode, MdgetErrorOptions } from './core/model/errors.js';
export { isMdgetError, MdgetError } from './core/model/errors.js';
export type { PlannedRequest } from './core/plan/planned-request.js';
export type { MinutesVariant } from './core/plan/requests.js';
export type {
  EodParams,
  EventsParams,
  ExtraParams,
  MinutesParams,
  TicksParams,
} from './core/plan/urls.js';
export type { Exchange } from './core/reference/exchanges.js';
export type { InstrumentsResult } from './core/reference/instruments-command.js';
export type {
  BatchResult,
  PlanEvent,
  ProgressEvent,
  RequestResult,
  RequestStatus,
} from './core/run/run-types.js';
