import type { RecordKind } from '../model/record-shapes.js';
import type { SeriesRequest } from './series.js';

/** One request of a plan, with what is needed to check, name and report it. */
export interface PlannedRequest {
  url: URL;
  kind: RecordKind;
  command: string;
  /** Symbol, root or comma list the request is for. */
  symbol: string;
  /** The market's zone when the symbol alone does not tell it (a nearby root such as ES is a future). */
  zone?: string;
  /** YYYY-MM-DD labels of the request's window, for templates and the report. */
  start?: string;
  end?: string;
  trend: boolean;
  jsonBody?: boolean;
  /** Time-series requests: their window, for boundaries and for completing a cut response. */
  series?: SeriesRequest;
  /** Set on a request mdget added to complete a window that came back cut (or may have). */
  continuation?: Continuation;
}

/** Why a request was added: the earlier response reached a known cap (`cut`) or a new high (`probe`). */
export interface Continuation {
  reason: 'cut' | 'probe';
  /** The time key the continuation starts from (ascending) or ends with (descending). */
  from: string;
  /** Rows of the response it continues (a probe's verdict teaches the cap from them). */
  previousRows: number;
}

/** A short human label: command, symbol and window ("ticks ESM25 2025-03-13"). */
export function describePlan(plan: PlannedRequest): string {
  const window = plan.start
    ? ` ${plan.start}${plan.end && plan.end !== plan.start ? `..${plan.end}` : ''}`
    : '';
  const from = plan.continuation ? ` from ${plan.continuation.from}` : '';
  return `${plan.command} ${plan.symbol}${window}${from}`;
}

/** The endpoint a request goes to (its page name): caps are learned per endpoint. */
export const endpointOf = (plan: PlannedRequest): string => plan.url.pathname.split('/').pop() ?? '';
