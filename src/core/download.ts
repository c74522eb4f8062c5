import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, type Readable, type Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bodyError, decoderFor, progressTotal } from './body.js';
import { type ErrorCode, isMdgetError, MdgetError } from './errors.js';
import { type HttpDeps, isAbort, openResponse } from './http.js';
import type { RecordKind } from './record-shapes.js';
import { redactUrl } from './redact.js';
import { closingBytes, newOutputState, type OutputFormat, ResponseTransform } from './response-transform.js';
import { atomicFileSink, type Sink, writeTo } from './writers/atomic-file.js';
import { checkClobber, exists, expandTemplate, isTemplate } from './writers/destination.js';
import { stdoutSink } from './writers/stdout.js';

/** One request of a plan, with what is needed to check, name and report it. */
export interface PlannedRequest {
  url: URL;
  kind: RecordKind;
  command: string;
  /** Symbol, root or comma list the request is for. */
  symbol: string;
  /** YYYY-MM-DD labels of the request's window, for templates and the report. */
  start?: string;
  end?: string;
  trend: boolean;
  jsonBody?: boolean;
}

/** How the outputs of a batch are written (cli.md common options). */
export interface BatchOptions {
  output: string;
  format: OutputFormat;
  header: boolean;
  force: boolean;
  skipExisting: boolean;
  concurrency: number;
  /** Count rows on the raw path too (for --report). */
  countRows?: boolean;
  /** fsync files before the rename (default true). */
  fsync?: boolean;
}

/** Progress of one request, for the CLI to draw; core never draws. */
export interface ProgressEvent {
  id: number;
  label: string;
  bytes: number;
  totalBytes?: number;
  done: boolean;
}

export interface RunDeps extends HttpDeps {
  stdout: NodeJS.WritableStream;
  onProgress?: (event: ProgressEvent) => void;
  /** Notes for stderr: zero records, skipped files. */
  onNote?: (message: string) => void;
  /** Told of each request before it is sent (--verbose), URL redacted. */
  onRequest?: (url: string) => void;
}

export type RequestStatus = 'ok' | 'empty' | 'failed' | 'skipped' | 'not-run';

/** One entry of the --report file. */
export interface RequestResult {
  url: string;
  symbol: string;
  start?: string;
  end?: string;
  status: RequestStatus;
  rows: number;
  bytes: number;
  durationMs: number;
  output: string;
  error?: { code: ErrorCode; message: string };
}

export interface BatchResult {
  results: RequestResult[];
  /** The reader of stdout went away: the run stopped quietly. */
  stdoutClosed: boolean;
  /** Set when anything failed: the single failure, or MDGET_PARTIAL when other outputs were written. */
  failure?: MdgetError;
}

interface Group {
  target: string;
  items: { plan: PlannedRequest; result: RequestResult }[];
}

/** The output file of each request and the groups that share one (pure). */
export function groupByOutput(
  plans: readonly PlannedRequest[],
  options: BatchOptions,
): Map<string, PlannedRequest[]> {
  const groups = new Map<string, PlannedRequest[]>();
  const ext = options.format === 'raw' ? (plans[0]?.jsonBody ? 'json' : 'csv') : options.format;
  for (const plan of plans) {
    const target = isTemplate(options.output)
      ? expandTemplate(options.output, {
          symbol: plan.symbol,
          date: plan.start ?? 'latest',
          start: plan.start ?? 'start',
          end: plan.end ?? 'end',
          command: plan.command,
          ext,
        })
      : options.output;
    const list = groups.get(target) ?? [];
    list.push(plan);
    groups.set(target, list);
  }
  return groups;
}

/**
 * Runs the planned requests: outputs are checked for clobbering and their directories created before the
 * first request; requests for one output run in order and are concatenated; separate outputs run
 * `concurrency` at a time. An output is committed only when all its requests succeeded.
 */
export async function runBatch(
  plans: readonly PlannedRequest[],
  options: BatchOptions,
  deps: RunDeps,
): Promise<BatchResult> {
  const groups: Group[] = [];
  for (const [target, list] of groupByOutput(plans, options)) {
    groups.push({
      target,
      items: list.map((plan) => ({
        plan,
        result: {
          url: redactUrl(plan.url),
          symbol: plan.symbol,
          ...(plan.start ? { start: plan.start } : {}),
          ...(plan.end ? { end: plan.end } : {}),
          status: 'not-run',
          rows: 0,
          bytes: 0,
          durationMs: 0,
          output: target,
        },
      })),
    });
  }
  const pending: Group[] = [];
  for (const group of groups) {
    if (group.target !== '-' && options.skipExisting && (await exists(group.target))) {
      for (const item of group.items) item.result.status = 'skipped';
      deps.onNote?.(`skipped ${group.target}: it exists (--skip-existing)`);
      continue;
    }
    await checkClobber(group.target, options.force || options.skipExisting);
    pending.push(group);
  }
  for (const group of pending) {
    if (group.target !== '-') await mkdir(dirname(group.target), { recursive: true }).catch(() => {});
  }

  const state = { stdoutClosed: false, nextId: 0 };
  const failures: MdgetError[] = [];
  const queue = [...pending];
  const worker = async () => {
    for (
      let group = queue.shift();
      group && !state.stdoutClosed && !deps.signal?.aborted;
      group = queue.shift()
    ) {
      const failure = await runGroup(group, options, deps, state);
      if (failure) failures.push(failure);
    }
  };
  const width = pending.some((g) => g.target === '-') ? 1 : Math.max(1, options.concurrency);
  await Promise.all(Array.from({ length: Math.min(width, pending.length) }, worker));

  const results = groups.flatMap((g) => g.items.map((i) => i.result));
  const result: BatchResult = { results, stdoutClosed: state.stdoutClosed };
  const aborted = failures.find((f) => f.code === 'MDGET_ABORTED');
  if (aborted) result.failure = aborted;
  else if (failures.length === 1 && pending.length === 1) result.failure = failures[0];
  else if (failures.length > 0) {
    // 7 means "the rest were written" (cli.md): with nothing written the first failure speaks for all.
    const written = results.some((r) => r.status === 'ok' || r.status === 'empty');
    result.failure = written
      ? new MdgetError(
          'MDGET_PARTIAL',
          `${failures.length} of ${pending.length} outputs failed (first: ${failures[0]!.message})`,
        )
      : failures[0];
  }
  return result;
}

/**
 * Runs one output. A body cut short (MDGET_NETWORK) after the first bytes cannot be resumed in place, so a
 * file output starts over into a fresh temporary file, up to the retry count; stdout cannot take bytes back.
 */
async function runGroup(
  group: Group,
  options: BatchOptions,
  deps: RunDeps,
  state: { stdoutClosed: boolean; nextId: number },
): Promise<MdgetError | undefined> {
  for (let attempt = 1; ; attempt++) {
    const failure = await runGroupOnce(group, options, deps, state);
    const again =
      failure?.code === 'MDGET_NETWORK' &&
      group.target !== '-' &&
      attempt <= deps.retry.retries &&
      !deps.signal?.aborted;
    if (!again) return failure;
    deps.onRetry?.({
      url: group.target,
      attempt,
      delayMs: 0,
      reason: `starting ${group.target} over: ${failure.message}`,
    });
    for (const { result } of group.items)
      Object.assign(result, { status: 'not-run', rows: 0, bytes: 0, error: undefined });
  }
}

async function runGroupOnce(
  group: Group,
  options: BatchOptions,
  deps: RunDeps,
  state: { stdoutClosed: boolean; nextId: number },
): Promise<MdgetError | undefined> {
  let sink: Sink;
  try {
    sink =
      group.target === '-'
        ? stdoutSink(deps.stdout)
        : await atomicFileSink(group.target, { fsync: options.fsync ?? true });
  } catch (error) {
    return asMdgetError(error);
  }
  const output = newOutputState(options.format, options.header);
  const spools = new Spools(
    group.items.map((i) => i.plan),
    Math.min(options.concurrency, 16) - 1,
    deps,
    state,
  );
  try {
    return await writeGroup(group, sink, output, spools, options, deps, state);
  } finally {
    await spools.dispose();
  }
}

async function writeGroup(
  group: Group,
  sink: Sink,
  output: ReturnType<typeof newOutputState>,
  spools: Spools,
  options: BatchOptions,
  deps: RunDeps,
  state: { stdoutClosed: boolean; nextId: number },
): Promise<MdgetError | undefined> {
  for (const [index, { plan, result }] of group.items.entries()) {
    const started = Date.now();
    try {
      const body = spools.bodyFor(index) ?? (() => openBody(plan, deps));
      const transform = await fetchInto(plan, body, sink, output, options, deps, result, state.nextId++);
      await spools.done(index);
      result.rows = transform.rows;
      result.status = transform.empty ? 'empty' : 'ok';
      if (transform.empty) deps.onNote?.(`no records for ${describe(plan)}`);
    } catch (error) {
      result.durationMs = Date.now() - started;
      if (sink.closed) {
        state.stdoutClosed = true;
        result.status = 'ok';
        await sink.abort();
        return undefined;
      }
      await sink.abort(); // first: classifying may rethrow an unexpected error (a bug, exit 1)
      const failure = asMdgetError(error, plan.url, deps.secrets);
      result.status = 'failed';
      result.error = { code: failure.code, message: failure.message };
      return failure;
    }
    result.durationMs = Date.now() - started;
  }
  try {
    const closing = closingBytes(output);
    if (closing) await writeTo(sink.stream, closing);
    await sink.commit();
  } catch (error) {
    if (sink.closed) {
      state.stdoutClosed = true;
      return undefined;
    }
    await sink.abort();
    return asMdgetError(error);
  }
  return undefined;
}

/** A response body ready to read: its (decoded) stages and the progress total. */
interface BodySource {
  stages: (Readable | Transform)[];
  total: { totalBytes?: number };
}

/** Sends the request and returns its body with the content-encoding undone. */
async function openBody(plan: PlannedRequest, deps: RunDeps): Promise<BodySource> {
  deps.onRequest?.(redactUrl(plan.url));
  const response = await openResponse(plan.url, deps);
  const decoder = decoderFor(response.headers);
  return {
    stages: decoder ? [response.body, decoder] : [response.body],
    total: progressTotal(response.headers),
  };
}

/**
 * Downloads a body ahead of its turn into a spool file, so the requests of one output overlap on the
 * network while their bytes still reach the output in order (--concurrency). Checks run when it is read.
 */
async function spoolBody(plan: PlannedRequest, deps: RunDeps, path: string, id: number): Promise<string> {
  const source = await openBody(plan, deps);
  const label = describe(plan);
  let bytes = 0;
  const count = new PassThrough();
  count.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    deps.onProgress?.({ id, label, bytes, ...source.total, done: false });
  });
  try {
    await pipeline(
      [...source.stages, count, createWriteStream(path)],
      deps.signal ? { signal: deps.signal } : {},
    );
  } finally {
    deps.onProgress?.({ id, label, bytes, done: true });
  }
  return path;
}

async function fetchInto(
  plan: PlannedRequest,
  body: () => Promise<BodySource>,
  sink: Sink,
  output: ReturnType<typeof newOutputState>,
  options: BatchOptions,
  deps: RunDeps,
  result: RequestResult,
  id: number,
): Promise<ResponseTransform> {
  const source = await body();
  const label = describe(plan);
  const transform = new ResponseTransform({
    kind: plan.kind,
    state: output,
    url: plan.url,
    symbol: plan.symbol,
    trend: plan.trend,
    jsonBody: plan.jsonBody ?? false,
    countRows: options.countRows ?? false,
    secrets: deps.secrets ?? [],
    onBytes: (bytes) => {
      result.bytes = bytes;
      deps.onProgress?.({ id, label, bytes, ...source.total, done: false });
    },
  });
  try {
    await pipeline(
      [...source.stages, transform, forwardTo(sink.stream)],
      deps.signal ? { signal: deps.signal } : {},
    );
  } finally {
    deps.onProgress?.({ id, label, bytes: transform.bytesIn, done: true });
  }
  return transform;
}

/**
 * The bodies of one output fetched ahead of their turn, at most `ahead` at a time beyond the one being
 * written. The first request always streams straight through; spool files live in a private temporary
 * directory removed when the output is done, whatever happened.
 */
class Spools {
  private readonly pending = new Map<number, Promise<string>>();
  private dir: Promise<string> | undefined;
  private readonly controller = new AbortController();
  private readonly deps: RunDeps;

  constructor(
    private readonly plans: readonly PlannedRequest[],
    private readonly ahead: number,
    deps: RunDeps,
    private readonly state: { nextId: number },
  ) {
    const signal = deps.signal
      ? AbortSignal.any([deps.signal, this.controller.signal])
      : this.controller.signal;
    this.deps = { ...deps, signal };
  }

  /** Starts the next downloads and returns the spooled body of `index`, or undefined to fetch it live. */
  bodyFor(index: number): (() => Promise<BodySource>) | undefined {
    for (let next = index + 1; next <= index + this.ahead && next < this.plans.length; next++)
      this.start(next);
    const spooled = this.pending.get(index);
    if (!spooled) return undefined;
    return async () => ({ stages: [createReadStream(await spooled)], total: {} });
  }

  /** Deletes the spool file of a request that was written. */
  async done(index: number): Promise<void> {
    const spooled = this.pending.get(index);
    if (spooled) await rm(await spooled, { force: true });
  }

  /** Stops downloads still running and removes every spool file. */
  async dispose(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled(this.pending.values());
    if (this.dir) await rm(await this.dir, { recursive: true, force: true }).catch(() => {});
  }

  private start(index: number): void {
    if (this.pending.has(index)) return;
    this.dir ??= mkdtemp(join(tmpdir(), 'mdget-spool-'));
    const plan = this.plans[index]!;
    const spooled = this.dir.then((dir) =>
      spoolBody(plan, this.deps, join(dir, `${index}.body`), this.state.nextId++),
    );
    spooled.catch(() => {}); // read when its turn comes; until then a failure must not go unhandled
    this.pending.set(index, spooled);
  }
}

/**
 * A per-request writable in front of an output shared by several requests: the request's pipeline can end
 * and clean up its listeners without ending the output, and backpressure and write errors still pass.
 */
function forwardTo(target: Writable): Writable {
  return new Writable({
    highWaterMark: 1024 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      if (target.destroyed) return callback(target.errored ?? new Error('output closed'));
      if (target.write(chunk)) return callback();
      const done = (error?: Error) => {
        target.off('drain', onDrain);
        target.off('error', done);
        target.off('close', onClose);
        callback(error);
      };
      const onDrain = () => done();
      const onClose = () => done(target.errored ?? new Error('output closed'));
      target.once('drain', onDrain);
      target.once('error', done);
      target.once('close', onClose);
    },
  });
}

function describe(plan: PlannedRequest): string {
  const window = plan.start
    ? ` ${plan.start}${plan.end && plan.end !== plan.start ? `..${plan.end}` : ''}`
    : '';
  return `${plan.command} ${plan.symbol}${window}`;
}

/** Any failure as an MdgetError (see bodyError); an unexpected error is rethrown: a bug, exit 1. */
function asMdgetError(error: unknown, url?: URL, secrets: readonly (string | undefined)[] = []): MdgetError {
  const mapped = url ? bodyError(error, url, secrets) : error;
  if (isMdgetError(mapped)) return mapped;
  if (isAbort(mapped)) return new MdgetError('MDGET_ABORTED', 'interrupted', { cause: mapped });
  throw mapped;
}
