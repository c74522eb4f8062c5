import type { Config } from '../model/config.js';
import { MdgetError } from '../model/errors.js';
import { redactUrl } from '../model/redact.js';
import type { ResponseTransform } from '../pipeline/response-transform.js';
import {
  type Continuation,
  describePlan,
  endpointOf,
  type PlannedRequest,
  urlOf,
  windowOf,
} from '../plan/planned-request.js';
import { windowLabels } from '../plan/requests.js';
import { continuationWindow } from '../plan/series.js';
import type { CutTracker } from './cut-tracker.js';
import type { OutputItem } from './run-state.js';
import type { RequestResult } from './run-types.js';

/**
 * What follows a response of a time series (docs/completeness.md): the same continuation again when the
 * server answered it from before its start, a continuation when the response was cut (or may have
 * been), else nothing. A probe's answer teaches the run's cap memory first.
 */
export function nextRequest(
  item: OutputItem,
  transform: ResponseTransform,
  cuts: CutTracker,
  config: Config,
): OutputItem | undefined {
  learnFromProbe(item.plan, transform, cuts);
  if (transform.stalled) return againOf(item, transform.repeatedRows);
  if (transform.verdict === 'complete' || transform.heldKey === undefined) return undefined;
  return continuationOf(item, transform.verdict, transform.heldKey, transform.receivedRows, config);
}

/**
 * A date-range request answers one line per symbol it knows and leaves the others out: an unknown symbol
 * is refused by the service, as ticks and eod refuse one, not dropped without a word.
 */
export function checkListed(plan: PlannedRequest, transform: ResponseTransform, config: Config): void {
  const missing = plan.symbol.split(',').filter((symbol) => !transform.symbols.has(symbol.toUpperCase()));
  if (missing.length === 0) return;
  const which = missing.length === 1 ? `symbol ${missing[0]}` : `symbols ${missing.join(',')}`;
  throw new MdgetError(
    'MDGET_SERVICE',
    `unknown ${which}: the service has no date range for it (${redactUrl(urlOf(plan, config))})`,
  );
}

/** A probe came back: rows past the key it started from mean the response it continued was cut. */
function learnFromProbe(plan: PlannedRequest, transform: ResponseTransform, cuts: CutTracker): void {
  const continuation = plan.continuation;
  if (continuation?.reason !== 'probe') return;
  const wentOn = transform.lastKey !== undefined && transform.lastKey !== continuation.from;
  cuts.learn(endpointOf(plan), continuation.previousRows, wentOn);
}

/**
 * The request that completes a window cut after rows up to `from` (the key group held back), or none when
 * the rest of the window is empty: mdget never sends a request it would refuse from a user.
 */
function continuationOf(
  item: OutputItem,
  reason: Continuation['reason'],
  from: string,
  previousRows: number,
  config: Config,
): OutputItem | undefined {
  const series = item.plan.series;
  if (!series) return undefined;
  const window = continuationWindow(series, from);
  if (window.start && window.end && window.end.getTime() <= window.start.getTime()) return undefined;
  const { start, end, ...rest } = item.plan;
  const plan: PlannedRequest = {
    ...rest,
    ...windowLabels(window),
    series: { ...series, window },
    continuation: { reason, from, previousRows },
  };
  return {
    plan,
    result: {
      ...withoutWindow(item.result),
      ...windowOf(plan),
      url: redactUrl(urlOf(plan, config)),
      status: 'not-run',
      rows: 0,
      bytes: 0,
      durationMs: 0,
      continuation: { reason, from },
    },
  };
}

/** Tries of a continuation the server answers from before its start: then the window fails. */
const STALLED_TRIES = 3;

/**
 * The same continuation once more, after one that came back full of rows from before its start; a
 * service failure once it has been tried STALLED_TRIES times.
 */
function againOf(item: OutputItem, repeated: number): OutputItem {
  const continuation = item.plan.continuation as Continuation;
  const tries = (continuation.tries ?? 1) + 1;
  if (tries > STALLED_TRIES) {
    throw new MdgetError(
      'MDGET_SERVICE',
      `the service keeps answering ${describePlan(item.plan)} from before its start (${repeated} rows again, ${STALLED_TRIES} tries): it ignores start, so the window cannot be completed`,
    );
  }
  return {
    plan: { ...item.plan, continuation: { ...continuation, tries } },
    result: { ...item.result, status: 'not-run', rows: 0, bytes: 0, durationMs: 0 },
  };
}

/** A result without its window, which a continuation replaces with its own. */
function withoutWindow(result: RequestResult): RequestResult {
  const { start, end, ...rest } = result;
  return rest;
}
