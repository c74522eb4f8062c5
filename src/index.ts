// The public library: a client, its option and record types, and the error class; nothing else. Importing
// it has no side effects (test/unit/architecture.test.ts).
export type { Client, ClientOptions, DownloadSettings, Query, QueryOf } from './core/client.js';
export { createClient } from './core/client.js';
export type { DatasetInput, ReferenceInput, SeriesInput } from './core/dataset/dataset.js';
export type { DatasetMethods, DatasetRef, SyncSettings } from './core/dataset/dataset-client.js';
export type { DatasetStatus, SeriesStatus } from './core/dataset/status.js';
export type { PlannedFetch, SyncResult } from './core/dataset/sync.js';
export type { Finding, VerifyResult } from './core/dataset/verify.js';
export type { ProxySettings } from './core/http/proxy-route.js';
export type { Config } from './core/model/config.js';
export type { ErrorCode, MdgetErrorOptions } from './core/model/errors.js';
export { isMdgetError, MdgetError } from './core/model/errors.js';
export type { OutputFormat, ParquetCompression } from './core/model/formats.js';
export type {
  DateInput,
  DownloadName,
  DownloadOptions,
  ExtraParams,
  MinutesVariant,
  OutputOptions,
  Queries,
  RunOptions,
  SymbolsQuery,
} from './core/model/options.js';
export type {
  DateRangeRecord,
  EodRecord,
  EodTrendRecord,
  EventRecord,
  FuturesOptionRecord,
  MinuteRecord,
  MinuteTrendRecord,
  NearbyMinuteRecord,
  RecordFor,
  RecordOf,
  Records,
  RecordWith,
  TickRecord,
  TickTrendRecord,
} from './core/model/records.js';
export type { OutputRef, PlannedRequest } from './core/plan/planned-request.js';
export type { Exchange } from './core/reference/exchanges.js';
export type { InstrumentsResult } from './core/reference/options.js';
export type { MetricsSettings } from './core/run/run-metrics.js';
export type {
  BatchResult,
  PlanEvent,
  ProgressEvent,
  RequestResult,
  RequestStatus,
  RunCounts,
} from './core/run/run-types.js';
