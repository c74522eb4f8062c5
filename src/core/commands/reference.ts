import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline as pipe, type Readable, Transform, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { bodyError, decoderFor, wireTotal } from '../body.js';
import { type Config, requireConfig } from '../config.js';
import { isMdgetError, MdgetError, usageError } from '../errors.js';
import { errorCode, type HttpDeps, isAbort, type OpenResponse, openResponse } from '../http.js';
import { redactText, redactUrl } from '../redact.js';
import { readCapture } from '../reference/capture.js';
import { type Exchange, findExchanges, parseExchangesXml, resolveExchange } from '../reference/exchanges.js';
import { type ExchangesFormat, exchangesTo } from '../reference/exchanges-format.js';
import { type InstrumentEntry, parseInstrumentArray } from '../reference/instrument-stream.js';
import type { ProfileTable } from '../reference/profile-tables.js';
import type { SqliteCounts } from '../reference/sqlite-writer.js';
import { type TableStreamFormat, writeTables } from '../reference/table-writers.js';
import { buildExchangesUrl, buildInstrumentsUrl } from '../request-builders.js';
import type { ProgressEvent } from '../run-types.js';
import { atomicFileSink, type Sink, writeTo } from '../writers/atomic-file.js';
import { checkClobber } from '../writers/destination.js';
import { stdoutSink } from '../writers/stdout.js';

export type { Exchange } from '../reference/exchanges.js';
export type { ExchangesFormat } from '../reference/exchanges-format.js';
export type { InstrumentEntry } from '../reference/instrument-stream.js';
export type { ProfileTable } from '../reference/profile-tables.js';
export type { SqliteCounts } from '../reference/sqlite-writer.js';
export type { TableStreamFormat } from '../reference/table-writers.js';

/** Output formats of `exchanges`: the typed list rendered, or `xml`, the service's (decoded) bytes unchanged. */
export type ExchangesOutputFormat = ExchangesFormat | 'xml';

/** Output formats of `instruments`: the profile tables as a stream, or a SQLite database file. */
export type InstrumentsFormat = TableStreamFormat | 'sqlite';

/** Where a reference command writes: `-` = stdout, else a file written atomically; `force` overwrites. */
export interface OutputOptions {
  output: string;
  force: boolean;
}

/** Options of `runExchanges`: `find` keeps exchanges whose id or description contains it (any case). */
export interface ExchangesOptions extends OutputOptions {
  format: ExchangesOutputFormat;
  find?: string;
}

/** How profile tables are written: `table` picks the one table `csv` writes (default `instruments`). */
export interface TablesOptions extends OutputOptions {
  format: InstrumentsFormat;
  table?: ProfileTable;
}

/** Options of `runInstruments`: the exchange by id or description (it must designate exactly one). */
export interface InstrumentsOptions extends TablesOptions {
  exchange: string;
}

/** Options of `runCapture`: a capture file's path, or a stream of one (spooled to a temporary file). */
export interface CaptureRunOptions extends TablesOptions {
  capture: string | NodeJS.ReadableStream;
}

/** What writing needs: stdout for `-`, the run's abort signal, and a listener for notes and warnings. */
export interface OutputDeps {
  stdout: NodeJS.WritableStream;
  signal?: AbortSignal;
  /** Notes for stderr: nothing matched, zero instruments, repeated marketIds (last wins). */
  onNote?: (message: string) => void;
}

/** What fetching needs: the HTTP plumbing plus optional listeners (requests, progress, notes). */
export interface ReferenceDeps extends HttpDeps {
  onNote?: (message: string) => void;
  /** Told of each request before it is sent (--verbose); the URL is redacted. */
  onRequest?: (url: string) => void;
  onProgress?: (event: ProgressEvent) => void;
}

/** Deps of the commands that fetch and write. */
export interface ReferenceRunDeps extends ReferenceDeps, OutputDeps {}

/** The exchanges list as fetched: typed elements, and the decoded body for `--format xml`. */
export interface FetchedExchanges {
  exchanges: Exchange[];
  xml: Buffer;
}

/** The outcome of a reference command: rows written (instruments or exchanges) and where. */
export interface ReferenceResult {
  written: number;
  output: string;
  /** The reader of stdout went away: the run stopped quietly (exit 0). */
  stdoutClosed: boolean;
  /** Row counts per table, for `--format sqlite`. */
  sqlite?: SqliteCounts;
}

/** The outcome of `runInstruments`: also the exchange the argument designated. */
export interface InstrumentsResult extends ReferenceResult {
  exchange: Exchange;
}

/** Throws MDGET_USAGE for option sets no writer can honour: sqlite to stdout, `table` outside csv. */
export function checkTablesOptions(options: TablesOptions): void {
  if (options.format === 'sqlite' && options.output === '-') {
    throw usageError('--format sqlite needs -o <file>: a database cannot be written to stdout');
  }
  if (options.table !== undefined && options.format !== 'csv') {
    throw usageError(
      `--table applies to --format csv only (${options.format} carries every table); drop it or use --format csv`,
    );
  }
}

/** Throws MDGET_USAGE when `find` is combined with `xml`, whose bytes go out unchanged and unfiltered. */
export function checkExchangesOptions(options: ExchangesOptions): void {
  if (options.find !== undefined && options.format === 'xml') {
    throw usageError(
      '--find cannot filter --format xml (the service bytes pass through): use csv, json or ndjson',
    );
  }
}

/** Fetches and parses the exchanges list (wire-formats §2.9); no credentials are sent to the extras host. */
export async function fetchExchanges(config: Config, deps: ReferenceDeps): Promise<FetchedExchanges> {
  requireConfig(config, ['extras']);
  const url = buildExchangesUrl(config);
  deps.onRequest?.(redactUrl(url));
  const response = await openResponse(url, deps);
  refuseHtml(response, url, deps.secrets);
  // The list is a few KiB of attributes: held whole, it is parsed once and its prolog's encoding honoured.
  const body = decodedBody(response);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body.stream) chunks.push(chunk as Buffer);
    await body.settled();
  } catch (error) {
    throw readError(body, error, url, deps.secrets);
  }
  const xml = Buffer.concat(chunks);
  // An HTML page can be well-formed XML without a single `exchange`: that is no empty list.
  if (/^\s*(<\?xml[^>]*>\s*)?<(!doctype\s+html|html)[\s>]/i.test(xml.subarray(0, 512).toString('latin1'))) {
    throw htmlError(url, deps.secrets);
  }
  return { exchanges: parseExchangesXml(xml), xml };
}

/** `mdget exchanges`: the list, filtered by `find`, written as `format` to `output`; returns the count. */
export async function runExchanges(
  options: ExchangesOptions,
  config: Config,
  deps: ReferenceRunDeps,
): Promise<ReferenceResult> {
  checkExchangesOptions(options);
  requireConfig(config, ['extras']);
  await checkClobber(options.output, options.force, 'pass --force to overwrite it');
  const { exchanges, xml } = await fetchExchanges(config, deps);
  if (options.format === 'xml') {
    const result = await writeOutput(options.output, deps, async (out) => {
      await writeTo(out, xml);
      return exchanges.length;
    });
    return { ...result, output: options.output };
  }
  const list = options.find === undefined ? exchanges : findExchanges(exchanges, options.find);
  if (list.length === 0) {
    deps.onNote?.(
      options.find === undefined
        ? 'the exchanges list holds no exchange'
        : `no exchange matches "${options.find}" by id or description`,
    );
  }
  const format = options.format;
  const result = await writeOutput(options.output, deps, async (out) => {
    await writeTo(out, exchangesTo(format, list));
    return list.length;
  });
  return { ...result, output: options.output };
}

/**
 * `mdget instruments <exchange>`: resolves the exchange through the list (a unique id or description, else
 * MDGET_USAGE naming the candidates), then streams `<id>-instruments.json` into the profile tables. The
 * output is checked before any request; a file appears only complete.
 */
export async function runInstruments(
  options: InstrumentsOptions,
  config: Config,
  deps: ReferenceRunDeps,
): Promise<InstrumentsResult> {
  checkTablesOptions(options);
  requireConfig(config, ['extras', 'instruments']);
  await checkClobber(options.output, options.force, 'pass --force to overwrite it');
  const { exchanges } = await fetchExchanges(config, deps);
  const exchange = resolveExchange(exchanges, options.exchange);
  const label = exchange.description
    ? `exchange ${exchange.id} (${exchange.description})`
    : `exchange ${exchange.id}`;
  const url = buildInstrumentsUrl(config, exchange.id);
  deps.onRequest?.(redactUrl(url));
  let response: OpenResponse;
  try {
    response = await openResponse(url, deps);
  } catch (error) {
    if (isMdgetError(error) && error.code === 'MDGET_SERVICE') throw refusal(error, label, url, deps.secrets);
    throw error;
  }
  refuseHtml(response, url, deps.secrets);
  const progress = deps.onProgress && progressOf(response, `instruments ${exchange.id}`, deps.onProgress);
  const body = decodedBody(response, progress?.onBytes);
  try {
    const entries = guarded(parseInstrumentArray(body.stream), body, url, deps.secrets);
    const result = await writeEntries(options, entries, deps);
    if (result.written === 0 && !result.stdoutClosed) deps.onNote?.(`no instruments for ${label}`);
    return { ...result, exchange };
  } finally {
    body.stream.destroy();
    progress?.done();
  }
}

/**
 * `mdget instruments --from-capture`: the same tables from captured streaming metadata. The whole capture
 * is checked first (wire-formats §3.4: SUCCESS, numberOfDefinitions); a bad one is MDGET_SERVICE naming
 * exchange, expected and actual counts, and nothing is written. A stream is spooled to a temporary file,
 * since the check reads the capture twice with flat memory; the file is removed afterwards.
 */
export async function runCapture(options: CaptureRunOptions, deps: OutputDeps): Promise<ReferenceResult> {
  checkTablesOptions(options);
  if (typeof options.capture === 'string') await checkCaptureFile(options.capture);
  await checkClobber(options.output, options.force, 'pass --force to overwrite it');
  let spool: string | undefined;
  try {
    let path: string;
    if (typeof options.capture === 'string') {
      path = options.capture;
    } else {
      spool = await mkdtemp(join(tmpdir(), 'mdget-capture-'));
      path = join(spool, 'capture.ndjson');
      try {
        await pipeline(options.capture, createWriteStream(path, { mode: 0o600 }), signalOption(deps.signal));
      } catch (error) {
        if (isAbort(error)) throw new MdgetError('MDGET_ABORTED', 'interrupted', { cause: error });
        throw new MdgetError('MDGET_IO', `cannot spool the capture from stdin: ${reasonOf(error)}`, {
          cause: error,
        });
      }
    }
    const source = path;
    const open = () => createReadStream(source);
    const entries = guardedCapture(readCapture(open, { onWarning: (m) => deps.onNote?.(m) }), source);
    // readCapture yields only once every check passed: take that first step before any output is opened,
    // so a bad capture leaves no file, no temporary file and no csv header on stdout.
    const first = await entries.next();
    const result = await writeEntries(options, resume(first, entries), deps);
    if (result.written === 0 && !result.stdoutClosed)
      deps.onNote?.('the capture holds no instrument definitions');
    return result;
  } finally {
    if (spool !== undefined) await rm(spool, { recursive: true, force: true });
  }
}

async function writeEntries(
  options: TablesOptions,
  entries: AsyncIterable<InstrumentEntry>,
  deps: OutputDeps,
): Promise<ReferenceResult> {
  if (options.output !== '-') await mkdir(dirname(options.output), { recursive: true }).catch(() => {});
  if (options.format === 'sqlite') {
    // Loaded here: importing the library must not load a native addon (STYLE §3).
    const { writeSqlite } = await import('../reference/sqlite-writer.js');
    const counts = await writeSqlite(entries, options.output, { onWarning: (m) => deps.onNote?.(m) });
    return { written: counts.instruments, output: options.output, stdoutClosed: false, sqlite: counts };
  }
  const format = options.format;
  const table = options.table;
  const result = await writeOutput(options.output, deps, (out) =>
    writeTables(format, entries, out, table === undefined ? {} : { table }),
  );
  return { ...result, output: options.output };
}

/** Refuses an existing target unless `force` (exit 6 before any request or any reading). */

async function checkCaptureFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    throw usageError(`--from-capture ${path}: cannot read it (${errorCode(error) || 'error'})`);
  }
  if (!isFile) throw usageError(`--from-capture ${path}: not a file (give a file, or - for stdin)`);
}

/** Opens the sink, runs `write` into it, commits; on failure drops it. A closed stdout ends quietly. */
async function writeOutput(
  output: string,
  deps: OutputDeps,
  write: (out: Writable) => Promise<number>,
): Promise<{ written: number; stdoutClosed: boolean }> {
  const sink: Sink = output === '-' ? stdoutSink(deps.stdout) : await atomicFileSink(output);
  // The writers see a destroyed stream only as "closed": keep the reason (disk full, EPIPE) it failed with.
  let streamError: unknown;
  sink.stream.on('error', (error) => {
    streamError ??= error;
  });
  try {
    const written = await write(sink.stream);
    await sink.commit();
    return { written, stdoutClosed: sink.closed };
  } catch (error) {
    await sink.abort();
    if (sink.closed) return { written: 0, stdoutClosed: true };
    throw isMdgetError(streamError) ? streamError : error;
  }
}

/** A response body being decoded: the stream to read, and the first transport failure seen on the way. */
interface DecodedBody {
  stream: Readable;
  /** The first error of the socket or a decoder: the cause, whatever a reader further down reports. */
  failure(): unknown;
  /** Resolves once every stage has ended cleanly; rejects with the first failure. */
  settled(): Promise<void>;
}

/** The body with its content-encoding undone; `onBytes` hears the wire bytes as they arrive. */
function decodedBody(response: OpenResponse, onBytes?: (bytes: number) => void): DecodedBody {
  let failure: unknown;
  const stages: Readable[] = [response.body];
  if (onBytes) stages.push(countBytes(onBytes));
  const decoder = decoderFor(response.headers);
  if (decoder) stages.push(decoder);
  // Every stage keeps a listener of its own: a decoder failing after its reader stopped (a gzip trailer
  // missing at the very end) must neither crash the process nor go unnoticed.
  for (const stage of stages) stage.on('error', (error) => (failure ??= error));
  const ignore = () => {};
  let stream = stages[0] as Readable;
  for (const stage of stages.slice(1)) stream = pipe(stream, stage as Transform, ignore);
  const last = stream;
  return {
    stream: last,
    failure: () => failure,
    settled: async () => {
      await finished(last).catch(() => {});
      if (failure !== undefined) throw failure;
    },
  };
}

function countBytes(onBytes: (bytes: number) => void): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      onBytes(bytes);
      callback(null, chunk);
    },
  });
}

/** Progress events of one body: wire bytes, and the total only when Content-Length counts the same bytes. */
function progressOf(
  response: OpenResponse,
  label: string,
  onProgress: (event: ProgressEvent) => void,
): { onBytes: (bytes: number) => void; done: () => void } {
  const total = wireTotal(response.headers);
  const event = (bytes: number, done: boolean): ProgressEvent => ({
    id: 0,
    label,
    output: '',
    bytes,
    wireBytes: response.received(),
    ...(total === undefined ? {} : { wireTotal: total }),
    rows: 0,
    done,
  });
  let seen = 0;
  return {
    onBytes: (bytes) => {
      seen = bytes;
      onProgress(event(bytes, false));
    },
    done: () => onProgress(event(seen, true)),
  };
}

/** The entries, with socket, zlib and abort failures turned into MdgetErrors naming the (redacted) URL. */
async function* guarded(
  entries: AsyncIterable<InstrumentEntry>,
  body: DecodedBody,
  url: URL,
  secrets: readonly (string | undefined)[] = [],
): AsyncGenerator<InstrumentEntry> {
  try {
    yield* entries;
    // Before the writer's loop ends and it commits: a body cut after the last entry is still truncated.
    await body.settled();
  } catch (error) {
    throw readError(body, error, url, secrets);
  }
}

async function* guardedCapture(
  entries: AsyncGenerator<InstrumentEntry>,
  path: string,
): AsyncGenerator<InstrumentEntry> {
  try {
    yield* entries;
  } catch (error) {
    if (isMdgetError(error)) throw error;
    throw new MdgetError('MDGET_IO', `cannot read the capture ${path}: ${reasonOf(error)}`, { cause: error });
  }
}

/** The first step of a generator and the rest of it, as one iterable that closes `rest` however it ends. */
async function* resume<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    if (first.done) return;
    yield first.value;
    yield* rest;
  } finally {
    await rest.return(undefined);
  }
}

// 404 is how a static host says "no such file" (wire-formats §2.10): name the exchange it was for. The body's
// first line that openResponse quotes is kept only when it is plain text: an error body may come gzipped.
/** The 4xx of an instruments file as a one-line MDGET_SERVICE naming the exchange and the status. */
function refusal(
  error: MdgetError,
  label: string,
  url: URL,
  secrets: readonly (string | undefined)[] = [],
): MdgetError {
  const status = /\(HTTP (\d{3})\)/.exec(error.message)?.[1] ?? '4xx';
  const where = redactUrl(url);
  const at = error.message.indexOf(`${where}: `);
  const detail = at < 0 ? '' : error.message.slice(at + where.length + 2);
  const quoted = /^[\x20-\x7e]+$/.test(detail) ? `: ${detail}` : '';
  const what = status === '404' ? 'no instruments file' : 'the instruments host refused';
  return new MdgetError(
    'MDGET_SERVICE',
    redactText(`${label}: ${what} (HTTP ${status}) ${where}${quoted}`, secrets),
    {
      cause: error,
    },
  );
}

// A socket or gzip failure also breaks the JSON (or XML) read from it: report that cause, not "malformed".
// A parser failing on good bytes destroys the stages with its own error, which is no transport failure.
/** The error to report for a failed read of `body`: its transport failure if it had one, else `error`. */
function readError(
  body: DecodedBody,
  error: unknown,
  url: URL,
  secrets: readonly (string | undefined)[] = [],
): unknown {
  const failure = body.failure();
  const transport = failure === undefined ? undefined : bodyError(failure, url, secrets);
  return isMdgetError(transport) ? transport : bodyError(error, url, secrets);
}

/** Throws MDGET_HTTP, as for a data endpoint (exit 5), when a 200 announces an HTML page: a maintenance page. */
function refuseHtml(response: OpenResponse, url: URL, secrets: readonly (string | undefined)[] = []): void {
  const type = String(response.headers['content-type'] ?? '').toLowerCase();
  if (!type.includes('text/html')) return;
  // undici reports its own destroy() as an 'error' (RequestAbortedError): nobody is reading, so drop it.
  response.body.on('error', () => {}).destroy();
  throw htmlError(url, secrets);
}

function htmlError(url: URL, secrets: readonly (string | undefined)[] = []): MdgetError {
  return new MdgetError(
    'MDGET_HTTP',
    redactText(`server sent an HTML page instead of data (maintenance?): ${redactUrl(url)}`, secrets),
  );
}

function reasonOf(error: unknown): string {
  return errorCode(error) || (error instanceof Error ? error.message : String(error));
}

function signalOption(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}
