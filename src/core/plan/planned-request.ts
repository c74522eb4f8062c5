import type { Config } from '../model/config.js';
import type { RecordKind } from '../model/record-shapes.js';
import type { SeriesRequest, SeriesWindow } from './series.js';
import { requestTarget, requestUrl, type ServiceRequest } from './urls.js';

/** Where a request's records go: the run's stream (the CLI's stdout), or a file. */
export type OutputRef = { kind: 'stream' } | { kind: 'file'; path: string };

/**
 * One request as its command plans it, with what is needed to check, name and report it. It holds no URL
 * and no credentials: the URL is built and signed when the request is sent (urlOf).
 */
export interface RequestPlan {
  /** Page and query, a time series' dates taken from its window (series.window). */
  request: ServiceRequest;
  kind: RecordKind;
  command: string;
  /** Symbol, root or comma list the request is for. */
  symbol: string;
  /**
   * The zone the service uses for it: the symbol's market zone, a nearby root's (Central), or
   * --source-tz. Decided once, when planned (plan/zones.ts).
   */
  zone: string;
  /** YYYY-MM-DD labels of the request's window, for templates and the report. */
  start?: string;
  end?: string;
  trend: boolean;
  jsonBody?: boolean;
  /** Time-series requests: their window, for boundaries and for completing a cut response. */
  series?: SeriesRequest;
  /** The dates of a request that is no time series (events' range, futopts' day), end exclusive. */
  range?: SeriesWindow;
  /** Set on a request mdget added to complete a window that came back cut (or may have). */
  continuation?: Continuation;
}

/** A request of a job: its plan and the output it writes to. */
export interface PlannedRequest extends RequestPlan {
  output: OutputRef;
}

/** Why a request was added: the earlier response reached a known cap (`cut`) or a new high (`probe`). */
export interface Continuation {
  reason: 'cut' | 'probe';
  /** The time key the continuation starts from (ascending) or ends with (descending). */
  from: string;
  /** Rows of the response it continues (a probe's verdict teaches the cap from them). */
  previousRows: number;
  /** How many times it was sent after one that came back with rows from before its start. */
  tries?: number;
}

/** A short human label: command, symbol and window ("ticks ESM25 2025-03-13"). */
export function describePlan(plan: RequestPlan): string {
  const window = plan.start
    ? ` ${plan.start}${plan.end && plan.end !== plan.start ? `..${plan.end}` : ''}`
    : '';
  const from = plan.continuation ? ` from ${plan.continuation.from}` : '';
  return `${plan.command} ${plan.symbol}${window}${from}`;
}

/** The endpoint a request goes to (its page name): caps are learned per endpoint. */
export const endpointOf = (plan: RequestPlan): string => plan.request.page.split('/').pop() ?? '';

/**
 * The URL `plan` is sent to: on the configured base, for its window, signed with the credentials (the one
 * place a request gets them) unless `sign` is false.
 */
export const urlOf = (plan: RequestPlan, config: Config, sign = true): URL =>
  requestUrl(plan.request, config, plan.series?.window, sign);

/** The page and query of `plan` without base or credentials (`queryeod.ashx?symbol=AAPL&…`). */
export const targetOf = (plan: RequestPlan): string => requestTarget(plan.request, plan.series?.window);

/** A request's window in wall-clock time, end exclusive, as ISO text: a date alone at midnight. */
export function windowOf(plan: RequestPlan): { start?: string; end?: string } {
  const window = plan.series?.window ?? plan.range;
  const text = (time: Date) => {
    const iso = time.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
  };
  return {
    ...(window?.start ? { start: text(window.start) } : {}),
    ...(window?.end ? { end: text(window.end) } : {}),
  };
}
