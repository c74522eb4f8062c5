/**
 * Writing a response body: streamed with backpressure (write, wait for 'drain'), gzip only when asked,
 * chunked or with Content-Length, optionally replayed from memory (`cacheBodies`, for benchmarks).
 */
import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { constants, createGzip, gzipSync } from 'node:zlib';

/** A response ready to send: text or byte chunks produced on demand. */
export interface Outcome {
  status: number;
  headers: Record<string, string>;
  chunks: Iterable<string | Buffer>;
  /** Line end of the body (CSV: the configured one), for faults that cut at a line. */
  eol: string;
  /** Key under which `cacheBodies` keeps the body; undefined = not cacheable. */
  cacheKey?: string;
  /**
   * A fresh copy of `chunks`: with Content-Length, a first pass over it measures the body, so a
   * generated file of hundreds of MB is never held in memory to be counted.
   */
  replay?: () => Iterable<string | Buffer>;
}

/** How to send: gzip when the client asked and the option allows; chunked or Content-Length. */
export interface SendMode {
  gzip: boolean;
  transfer: 'chunked' | 'length';
}

/** Bodies kept for `cacheBodies`: uncompressed chunks and their total length. */
export type BodyCache = Map<string, { chunks: Buffer[]; length: number }>;

/** Resolves on 'drain', or on 'close' when the client went away. */
function drained(sink: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      sink.off('drain', done);
      sink.off('close', done);
      resolve();
    };
    sink.on('drain', done);
    sink.on('close', done);
  });
}

/** Writes every chunk, waiting for 'drain' whenever the sink is full; stops when it is destroyed. */
async function pump(chunks: Iterable<string | Buffer>, sink: Writable): Promise<void> {
  for (const chunk of chunks) {
    if (sink.destroyed) return;
    if (!sink.write(chunk)) await drained(sink);
  }
}

/** The whole body as one buffer (Content-Length bodies and faults that need the full size). */
export function collect(chunks: Iterable<string | Buffer>): Buffer {
  const buffers: Buffer[] = [];
  for (const chunk of chunks) buffers.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(buffers);
}

function* recording(chunks: Iterable<string | Buffer>, into: Buffer[]): Generator<Buffer> {
  for (const chunk of chunks) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    into.push(buffer);
    yield buffer;
  }
}

const GZIP_OPTIONS = { level: constants.Z_BEST_SPEED };

/** Bytes of a body, walked once and dropped. */
function measure(chunks: Iterable<string | Buffer>): number {
  let length = 0;
  for (const chunk of chunks) length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  return length;
}

/** Bytes of a body's gzip stream, compressed and dropped: the same input and settings give the same bytes. */
async function measureGzip(chunks: Iterable<string | Buffer>): Promise<number> {
  const gzip = createGzip(GZIP_OPTIONS);
  let length = 0;
  gzip.on('data', (chunk: Buffer) => {
    length += chunk.length;
  });
  const ended = new Promise((resolve) => gzip.once('end', resolve));
  await pump(chunks, gzip);
  gzip.end();
  await ended;
  return length;
}

/**
 * Streams chunks through gzip into the response; resolves when the response is done or gone. The gzip
 * pieces are recorded into `into` when given (cacheBodies), to be replayed as they were sent.
 */
async function pumpGzip(
  res: ServerResponse,
  chunks: Iterable<string | Buffer>,
  into?: Buffer[],
): Promise<void> {
  const gzip = createGzip(GZIP_OPTIONS);
  if (into) gzip.on('data', (piece: Buffer) => into.push(piece));
  gzip.pipe(res);
  res.once('close', () => gzip.destroy());
  await pump(chunks, gzip);
  gzip.end();
  await new Promise<void>((resolve) => {
    if (res.writableFinished || res.destroyed) resolve();
    else res.once('close', resolve).once('finish', resolve);
  });
}

/** Sends an outcome; resolves when the body is written or the client is gone. */
export async function sendOutcome(
  res: ServerResponse,
  outcome: Outcome,
  mode: SendMode,
  cache?: BodyCache,
): Promise<void> {
  if (outcome.status === 304) {
    res.writeHead(304, outcome.headers);
    res.end();
    return;
  }
  // A compressed body is kept too, and replayed in gzip's own pieces, each an HTTP chunk, as a server that
  // compresses while streaming sends it: benchmarks then measure the client, not the emulator's gzip.
  const gzipKey = outcome.cacheKey === undefined || !mode.gzip ? undefined : `${outcome.cacheKey}\u0000gzip`;
  const gzipped = gzipKey === undefined ? undefined : cache?.get(gzipKey);
  if (gzipped) {
    const length = mode.transfer === 'length' ? { 'content-length': gzipped.length } : {};
    res.writeHead(outcome.status, { ...outcome.headers, 'content-encoding': 'gzip', ...length });
    await pump(gzipped.chunks, res);
    if (!res.destroyed) res.end();
    return;
  }
  const cached = outcome.cacheKey === undefined ? undefined : cache?.get(outcome.cacheKey);
  let chunks: Iterable<string | Buffer> = cached ? cached.chunks : outcome.chunks;
  let recorded: Buffer[] | undefined;
  if (cache && outcome.cacheKey !== undefined && !cached) {
    recorded = [];
    chunks = recording(chunks, recorded);
  }
  const headers: Record<string, string | number> = { ...outcome.headers };
  if (mode.gzip) headers['content-encoding'] = 'gzip';
  const replay = cached ? undefined : outcome.replay;
  // false once a materialized body is already compressed
  let compress = mode.gzip;
  if (mode.transfer === 'length' && replay) {
    headers['content-length'] = mode.gzip ? await measureGzip(replay()) : measure(replay());
  } else if (mode.transfer === 'length' || (cached && !mode.gzip)) {
    let body: Buffer[];
    if (cached && !mode.gzip) {
      body = cached.chunks;
    } else if (mode.gzip) {
      body = [gzipSync(collect(chunks), GZIP_OPTIONS)];
    } else {
      // the chunks as they are, never concatenated: a 500 MB body is held once, not twice
      body = [...chunks].map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    }
    headers['content-length'] = body.reduce((sum, chunk) => sum + chunk.length, 0);
    chunks = body;
    compress = false;
  }
  res.writeHead(outcome.status, headers);
  if (compress) {
    const pieces: Buffer[] | undefined = cache && gzipKey !== undefined ? [] : undefined;
    await pumpGzip(res, chunks, pieces);
    // a finished response may already be closed: what counts is that every byte went out
    if (pieces && gzipKey !== undefined && res.writableFinished) store(cache, gzipKey, pieces);
  } else {
    await pump(chunks, res);
    if (!res.destroyed) res.end();
  }
  if (recorded && outcome.cacheKey !== undefined && !res.destroyed) store(cache, outcome.cacheKey, recorded);
}

function store(cache: BodyCache | undefined, key: string, chunks: Buffer[]): void {
  cache?.set(key, { chunks, length: chunks.reduce((sum, chunk) => sum + chunk.length, 0) });
}
