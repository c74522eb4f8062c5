import { pipeline } from 'node:stream/promises';
import type { BodySource } from '../http/open-body.js';
import { DEFAULTS } from '../model/defaults.js';
import { forwardTo } from '../pipeline/forward-to.js';
import type { OutputState } from '../pipeline/output-state.js';
import { ResponseTransform } from '../pipeline/response-transform.js';
import type { RunSettings } from '../plan/job.js';
import { describePlan, endpointOf, urlOf } from '../plan/planned-request.js';
import type { Sink } from '../sink/atomic-file.js';
import { idOf, type OutputItem, type RunState } from './run-state.js';
import type { RunDeps } from './run-types.js';

/** Tells the progress listener about one request (core reports; the CLI draws). */
export function progress(
  deps: RunDeps,
  run: RunState,
  item: OutputItem,
  output: string | undefined,
  source: BodySource,
  bytes: number,
  rows: number,
  done: boolean,
  status?: 'ok' | 'empty' | 'failed',
): void {
  deps.onProgress?.({
    id: idOf(item, run),
    label: describePlan(item.plan),
    ...(output === undefined ? {} : { output }),
    bytes,
    wireBytes: source.wire(),
    ...(source.wireTotal === undefined ? {} : { wireTotal: source.wireTotal }),
    rows,
    done,
    ...(status ? { status } : {}),
  });
}

export async function fetchInto(
  item: OutputItem,
  body: Promise<BodySource>,
  sink: Sink,
  output: OutputState,
  options: RunSettings,
  deps: RunDeps,
  run: RunState,
): Promise<ResponseTransform> {
  const { plan, result } = item;
  const source = await body;
  const endpoint = endpointOf(plan);
  let transform: ResponseTransform | undefined;
  transform = new ResponseTransform({
    kind: plan.kind,
    state: output,
    url: urlOf(plan, run.config),
    symbol: plan.symbol,
    trend: plan.trend,
    jsonBody: plan.jsonBody ?? false,
    noteSymbols: plan.kind === 'dateRange',
    secrets: deps.secrets ?? [],
    onBytes: (bytes) => {
      result.bytes = bytes;
      progress(deps, run, item, result.output, source, bytes, transform?.rows ?? 0, false);
    },
    ...(plan.series ? { series: plan.series } : {}),
    // events are dated rows too: those outside the range asked for are dropped
    ...(plan.kind === 'events' && plan.range ? { dates: plan.range } : {}),
    ...(plan.continuation && plan.series?.order !== 'desc'
      ? { continuationFrom: plan.continuation.from }
      : {}),
    ...(options.timeZone
      ? {
          timeZone: {
            target: options.timeZone,
            source: plan.zone,
            order: plan.series?.order ?? DEFAULTS.order,
          },
        }
      : {}),
    ...(plan.series && plan.series.userLimit === undefined
      ? { verdict: (rows: number) => run.cuts.verdict(endpoint, rows) }
      : {}),
  });
  let ok = false;
  try {
    await pipeline(
      [...source.stages, transform, forwardTo(sink.stream)],
      deps.signal ? { signal: deps.signal } : {},
    );
    ok = true;
  } finally {
    const status = !ok ? 'failed' : transform.empty ? 'empty' : 'ok';
    progress(deps, run, item, result.output, source, transform.bytesIn, transform.rows, true, status);
  }
  return transform;
}
