import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type BodySource, type OpenDeps, openBody } from '../http/open-body.js';
import { toMdgetError } from '../http/to-mdget-error.js';
import { MdgetError } from '../model/errors.js';
import { columnsOfOutput } from '../model/record-shapes.js';
import { redactUrl } from '../model/redact.js';
import { forwardTo } from '../pipeline/forward-to.js';
import { closingBytes, newOutputState, type OutputState } from '../pipeline/output-state.js';
import { ResponseTransform } from '../pipeline/response-transform.js';
import type { RunSettings } from '../plan/job.js';
import { optionNames } from '../plan/names.js';
import {
  type Continuation,
  describePlan,
  endpointOf,
  type OutputRef,
  type PlannedRequest,
  windowOf,
} from '../plan/planned-request.js';
import { windowLabels } from '../plan/requests.js';
import { pickColumns } from '../plan/rules.js';
import { continuationWindow } from '../plan/series.js';
import { type Sink, writeTo } from '../sink/atomic-file.js';
import { gzipSink } from '../sink/gzip-sink.js';
import { openSink } from '../sink/open-sink.js';
import { markProvisional } from '../sink/provisional.js';
import type { CutTracker } from './cut-tracker.js';
import type { PlanEvent, RequestResult, RunDeps } from './run-types.js';
import type { RequestScheduler } from './scheduler.js';
import { Spools } from './spools.js';
import { copyGzipPrefix } from './update.js';

/** The requests that write one output (a file, or the run's stream), in the order their bytes go out. */
export interface OutputGroup {
  output: OutputRef;
  items: OutputItem[];
  /** --update: bytes of the existing file kept before the new rows (update.ts). */
  keepBytes?: number;
  /** The target is a device, FIFO or the like: written directly (writers/targets.ts). */
  special?: boolean;
}

/** The file an output writes, or undefined for the run's stream. */
const pathOf = (group: OutputGroup): string | undefined =>
  group.output.kind === 'file' ? group.output.path : undefined;

export interface OutputItem {
  plan: PlannedRequest;
  result: RequestResult;
}

/** What the outputs of one run share: the cap memory, ids for progress, whether stdout went away. */
export interface RunState {
  cuts: CutTracker;
  nextId: number;
  stdoutClosed: boolean;
  /** Commits of file outputs still running: each resolves to its failure, if any. */
  commits: Promise<MdgetError | undefined>[];
  inFlight: Set<Promise<MdgetError | undefined>>;
  /** The plan's size, as told to onPlan. */
  plan: PlanEvent;
  /** Every request of the run goes through it: --concurrency, --rate, retries. */
  scheduler: RequestScheduler;
}

/** What opening a body of the run needs: its scheduler, secrets and request listener. */
const openDeps = (deps: RunDeps, run: RunState): OpenDeps => ({
  opener: run.scheduler,
  ...(deps.secrets ? { secrets: deps.secrets } : {}),
  ...(deps.onRequest ? { onRequest: deps.onRequest } : {}),
});

/**
 * Runs one output. A body cut short (MDGET_NETWORK) after the first bytes cannot be resumed in place, so a
 * file output starts over into a fresh temporary file, up to the retry count; stdout cannot take bytes back.
 */
export async function runOutput(
  group: OutputGroup,
  options: RunSettings,
  deps: RunDeps,
  run: RunState,
): Promise<MdgetError | undefined> {
  const planned = group.items.length;
  for (let attempt = 1; ; attempt++) {
    const failure = await runOutputOnce(group, options, deps, run);
    const again =
      failure?.code === 'MDGET_NETWORK' &&
      group.output.kind === 'file' &&
      attempt <= deps.retry.retries &&
      !deps.signal?.aborted;
    if (!again) return failure;
    run.scheduler.retried({
      url: pathOf(group) ?? '',
      attempt,
      delayMs: 0,
      reason: `starting ${pathOf(group)} over: ${failure.message}`,
    });
    group.items.splice(planned); // continuations are found again
    for (const { result } of group.items)
      Object.assign(result, { status: 'not-run', rows: 0, bytes: 0, error: undefined });
  }
}

async function runOutputOnce(
  group: OutputGroup,
  settings: RunSettings,
  deps: RunDeps,
  run: RunState,
): Promise<MdgetError | undefined> {
  const path = pathOf(group);
  const { gzip } = settings;
  let sink: Sink;
  try {
    sink = await openSink(group.output, {
      stdout: deps.stdout,
      special: group.special ?? false,
      fsync: settings.fsync,
      // a gzip file cannot be cut in place: its kept rows are recompressed below
      ...(group.keepBytes === undefined || gzip ? {} : { keepBytes: group.keepBytes }),
    });
  } catch (error) {
    return toMdgetError(error);
  }
  if (gzip) {
    sink = gzipSink(sink);
    try {
      if (group.keepBytes && path) await copyGzipPrefix(path, group.keepBytes, sink.stream);
    } catch (error) {
      await sink.abort();
      const update = (deps.names ?? optionNames)('update');
      return toMdgetError(
        new MdgetError('MDGET_IO', `${update} cannot read ${path}: ${(error as Error).message}`),
      );
    }
  }
  const output = newOutputState(
    settings.format,
    settings.header,
    columnsOfOutput(group.items.map((i) => i.plan)),
  );
  const columns = output.columns;
  if (settings.columns && columns)
    output.pick = pickColumns(settings.columns, columns, deps.names ?? optionNames);
  // The kept bytes of an --update start with the header.
  if (group.keepBytes) output.headerWritten = true;
  // beside the output; a device's directory (/dev) is no place for them, nor is a stream's
  const spoolDir = settings.tempDir ?? (path === undefined || group.special ? tmpdir() : dirname(path));
  const spools = new Spools<OutputItem>(
    spoolDir,
    Math.min(settings.concurrency, 16) - 1,
    (item, signal) => openBody(item.plan.url, openDeps(deps, run), 'csv', { priority: 'ahead', signal }),
    (item, bytes, source) => progress(deps, run, item, path, source, bytes, 0, false),
    deps.signal,
  );
  try {
    return await writeOutput(group, sink, output, spools, settings, deps, run);
  } finally {
    await spools.dispose();
  }
}

const ids = new WeakMap<OutputItem, number>();
function idOf(item: OutputItem, run: RunState): number {
  let id = ids.get(item);
  if (id === undefined) {
    id = run.nextId++;
    ids.set(item, id);
  }
  return id;
}

async function writeOutput(
  group: OutputGroup,
  sink: Sink,
  output: OutputState,
  spools: Spools<OutputItem>,
  options: RunSettings,
  deps: RunDeps,
  run: RunState,
): Promise<MdgetError | undefined> {
  const { items } = group;
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    const { plan, result } = item;
    const started = Date.now();
    try {
      // this request asks for its slot before the read-aheads after it: the scheduler serves them in turn
      const body = spools.bodyOf(item) ?? openBody(plan.url, openDeps(deps, run));
      body.catch(() => {}); // awaited by fetchInto; read-ahead may end the run first
      spools.readAhead(items, index);
      const transform = await fetchInto(item, body, sink, output, options, deps, run);
      await spools.done(item);
      if (plan.kind === 'dateRange') checkListed(plan, transform);
      result.rows = transform.rows;
      result.status = transform.empty ? 'empty' : 'ok';
      if (transform.empty && !plan.continuation) deps.onNote?.(`no records for ${describePlan(plan)}`);
      learnFromProbe(plan, transform, run.cuts);
      const next = transform.stalled
        ? againOf(item, transform.repeatedRows)
        : transform.verdict !== 'complete' && transform.heldKey !== undefined
          ? continuationOf(item, transform.verdict, transform.heldKey, transform.receivedRows)
          : undefined;
      if (next) items.splice(index + 1, 0, next);
    } catch (error) {
      result.durationMs = Date.now() - started;
      if (sink.closed) {
        run.stdoutClosed = true;
        result.status = 'ok';
        await sink.abort();
        return undefined;
      }
      await sink.abort(); // first: classifying may rethrow an unexpected error (a bug, exit 1)
      const failure = toMdgetError(error, plan.url, deps.secrets);
      result.status = 'failed';
      result.error = { code: failure.code, message: failure.message };
      return failure;
    }
    result.durationMs = Date.now() - started;
  }
  try {
    const closing = closingBytes(output);
    if (closing) await writeTo(sink.stream, closing);
  } catch (error) {
    return dropSink(error, sink, run);
  }
  const provisional = items.some((i) => i.plan.series?.provisional);
  const path = pathOf(group);
  // a special file (a FIFO, a device) is written as it is: no provisional marker beside it
  const commit = finalize(group.special ? undefined : path, sink, provisional, run);
  if (path === undefined) return commit;
  // A file's fsync and rename overlap the next output's download; the batch awaits them all (issue 9). At
  // most COMMITS_IN_FLIGHT wait, each holding its file open.
  const tracked = commit.then((failure) => failure && failCommitted(group, failure));
  run.commits.push(tracked);
  run.inFlight.add(tracked);
  void tracked.finally(() => run.inFlight.delete(tracked));
  while (run.inFlight.size >= COMMITS_IN_FLIGHT) await Promise.race(run.inFlight);
  return undefined;
}

const COMMITS_IN_FLIGHT = 16;

/** Makes an output final: sync, close, rename; the provisional marker of a file follows. */
async function finalize(
  target: string | undefined,
  sink: Sink,
  provisional: boolean,
  run: RunState,
): Promise<MdgetError | undefined> {
  try {
    await sink.commit();
    if (target !== undefined) await markProvisional(target, provisional);
    return undefined;
  } catch (error) {
    return dropSink(error, sink, run);
  }
}

/** After a failed write or commit: a closed stdout ends the run quietly; anything else drops the sink. */
async function dropSink(error: unknown, sink: Sink, run: RunState): Promise<MdgetError | undefined> {
  if (sink.closed) {
    run.stdoutClosed = true;
    return undefined;
  }
  await sink.abort();
  return toMdgetError(error);
}

/** An output whose commit failed: its requests are failed in the report, and the failure returned. */
function failCommitted(group: OutputGroup, failure: MdgetError): MdgetError {
  for (const { result } of group.items) {
    result.status = 'failed';
    result.error = { code: failure.code, message: failure.message };
  }
  return failure;
}

/**
 * A date-range request answers one line per symbol it knows and leaves the others out: an unknown symbol
 * is refused by the service, as ticks and eod refuse one, not dropped without a word.
 */
function checkListed(plan: PlannedRequest, transform: ResponseTransform): void {
  const missing = plan.symbol.split(',').filter((symbol) => !transform.symbols.has(symbol.toUpperCase()));
  if (missing.length === 0) return;
  const which = missing.length === 1 ? `symbol ${missing[0]}` : `symbols ${missing.join(',')}`;
  throw new MdgetError(
    'MDGET_SERVICE',
    `unknown ${which}: the service has no date range for it (${redactUrl(plan.url)})`,
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
): OutputItem | undefined {
  const series = item.plan.series;
  if (!series) return undefined;
  const window = continuationWindow(series, from);
  if (window.start && window.end && window.end.getTime() <= window.start.getTime()) return undefined;
  const url = series.rebuild(window);
  const { start, end, ...plan } = item.plan;
  const labels = windowLabels(window);
  return {
    plan: {
      ...plan,
      ...labels,
      url,
      series: { ...series, window },
      continuation: { reason, from, previousRows },
    },
    result: {
      ...withoutWindow(item.result),
      ...windowOf({ ...item.plan, series: { ...series, window } }),
      url: redactUrl(url),
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

/** Tells the progress listener about one request (core reports; the CLI draws). */
function progress(
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

async function fetchInto(
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
    url: plan.url,
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
    ...(plan.continuation && plan.series?.order !== 'desc'
      ? { continuationFrom: plan.continuation.from }
      : {}),
    ...(options.timeZone
      ? {
          timeZone: {
            target: options.timeZone,
            source: plan.zone,
            order: plan.series?.order ?? 'asc',
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
