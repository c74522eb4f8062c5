import { createHash } from 'node:crypto';
/**
 * The HTTP side of the emulator: routing, credentials, request log, rate limit, query length, faults,
 * then the endpoint's answer through send.ts. Bases: `/historical`, `/fo`, `/extras`, `/instruments`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dateRangeRecords } from './date-range.js';
import { eodRecords } from './eod.js';
import { eventRecords } from './events.js';
import { exchangesXml } from './exchanges.js';
import { bodyFaultOutcome, earlyFaultOutcome, isEarlyFault, sendCut, takeFaults } from './faults.js';
import { futuresOptionRecords, optionCsvLine, optionJson } from './futures-options.js';
import { instrumentsFile } from './instruments.js';
import { minuteRecords } from './minutes.js';
import { type EmulatorOptions, resolveEmulatorOptions } from './options.js';
import { type Context, errorLine, parseQuery, ServiceError } from './query.js';
import { SlidingWindow } from './rate-limit.js';
import { joinLines, type Records, renderRecords } from './records.js';
import type { EmulatorHooks, RecordedRequest } from './requests.js';
import { type BodyCache, type Outcome, sendOutcome } from './send.js';
import { tickRecords } from './ticks.js';
import { createServing, type EmulatorTls } from './tls.js';

/** A running emulator. */
export interface Emulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Base URLs, no trailing slash. */
  urls: { historical: string; futuresOptions: string; extras: string; instruments: string };
  /** The MDGET_* variables that point a client at this emulator. */
  env: Record<string, string>;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Requests being served now (from arrival to the end of the response), and the most at once so far. */
  readonly inFlight: number;
  readonly peakInFlight: number;
  /** Starts counting the peak afresh. */
  resetPeak(): void;
  /** Over HTTPS: the CA certificate (PEM) that signed the emulator's; its file is NODE_EXTRA_CA_CERTS. */
  ca?: string;
  /** Live options: tests may change them (e.g. `faults`) between requests. */
  options: EmulatorOptions;
  /** Live hooks of a test in this process (none at first): see requests.ts. */
  readonly hooks: EmulatorHooks;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const CSV_PAGES: Record<string, (ctx: Context) => Records> = {
  'queryticks.ashx': tickRecords,
  'queryminutes.ashx': (ctx) => minuteRecords(ctx, 'minutes'),
  'querynearbyminutes.ashx': (ctx) => minuteRecords(ctx, 'nearby'),
  'queryformtminutes.ashx': (ctx) => minuteRecords(ctx, 'formT'),
  'queryeod.ashx': eodRecords,
  'queryevents.ashx': eventRecords,
  'queryminutedaterange.ashx': (ctx) => dateRangeRecords(ctx, 'minutes'),
  'queryeoddaterange.ashx': (ctx) => dateRangeRecords(ctx, 'eod'),
};

type Route =
  | { type: 'csv'; page: string }
  | { type: 'futuresOptions'; json: boolean }
  | { type: 'exchanges' }
  | { type: 'instruments'; id: string }
  | { type: 'notFound' };

function route(pathname: string, options: EmulatorOptions): Route {
  const lower = pathname.toLowerCase();
  const historical = /^\/historical\/([^/]+)$/.exec(lower);
  if (historical?.[1] && Object.hasOwn(CSV_PAGES, historical[1])) return { type: 'csv', page: historical[1] };
  if (lower === '/fo/futuresoptions') return { type: 'futuresOptions', json: false };
  if (lower === '/fo/futuresoptions/json') return { type: 'futuresOptions', json: true };
  if (pathname === `/extras/${options.exchangesPath}.php`) return { type: 'exchanges' };
  const instruments = /^\/instruments\/([^/]+)-instruments\.json$/.exec(pathname);
  if (instruments?.[1]) {
    try {
      return { type: 'instruments', id: decodeURIComponent(instruments[1]) };
    } catch {
      return { type: 'notFound' };
    }
  }
  return { type: 'notFound' };
}

function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    const zero = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    return (coding?.trim().toLowerCase() === 'gzip' || coding?.trim() === '*') && !zero;
  });
}

const plain = (status: number, text: string): Outcome => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  chunks: [text],
  eol: '\r\n',
});

function cacheKeyOf(pathname: string, params: Map<string, string>): string {
  const kept = [...params]
    .filter(([name]) => name !== 'username' && name !== 'password')
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `${pathname}?${new URLSearchParams(kept).toString()}`;
}

/**
 * A CSV data body, followed by the stray line end of `strayLineEnd` (docs/service.md#response-lines) when on.
 */
function* withStrayLineEnd(chunks: Iterable<string | Buffer>): Generator<string | Buffer> {
  yield* chunks;
  yield '\r\n';
}

/** The normal answer of a request (before body faults). */
function answer(req: IncomingMessage, pathname: string, rawQuery: string, options: EmulatorOptions): Outcome {
  const { params } = parseQuery(rawQuery);
  if (options.ignoreStart) params.delete('start');
  const eol = options.lineEnding === 'crlf' ? '\r\n' : '\n';
  const textHeaders = { 'content-type': options.contentType };
  const target = route(pathname, options);
  const ctx: Context = { params, options, now: options.now ?? new Date() };
  const credentialsOk =
    params.get('username') === options.username && params.get('password') === options.password;
  const errorOutcome = (line: string): Outcome => ({
    status: options.errorStatus,
    headers: textHeaders,
    chunks: joinLines([[line]], eol, options.finalNewline),
    eol,
  });
  const cacheKey = options.cacheBodies ? cacheKeyOf(pathname, params) : undefined;
  const csvBody = (chunks: Iterable<string | Buffer>) =>
    options.strayLineEnd ? withStrayLineEnd(chunks) : chunks;
  switch (target.type) {
    case 'notFound':
      return plain(404, 'Not Found\r\n');
    case 'exchanges': {
      if (options.extrasAuth === 'query' && !credentialsOk) return plain(401, 'Unauthorized\r\n');
      const xml = exchangesXml(options);
      const body =
        options.exchangesEncoding === 'utf-8' ? Buffer.from(xml, 'utf8') : Buffer.from(xml, 'latin1');
      // A static-looking page: Last-Modified follows its content, and If-Modified-Since gets 304.
      const lastModified = lastModifiedOf(body);
      const since = Date.parse(String(req.headers['if-modified-since'] ?? ''));
      if (since >= Date.parse(lastModified))
        return { status: 304, headers: { 'last-modified': lastModified }, chunks: [], eol: '\n' };
      return {
        status: 200,
        headers: {
          'content-type': `text/xml; charset=${options.exchangesEncoding}`,
          'last-modified': lastModified,
        },
        chunks: [body],
        eol: '\n',
      };
    }
    case 'instruments': {
      const file = instrumentsFile(target.id, options);
      if (!file) return plain(404, 'Not Found\r\n');
      const headers = { 'content-type': 'application/json', etag: file.etag };
      const ifNoneMatch = req.headers['if-none-match'];
      if (
        typeof ifNoneMatch === 'string' &&
        (ifNoneMatch.trim() === '*' ||
          ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag))
      ) {
        return { status: 304, headers: { etag: file.etag }, chunks: [], eol: '\n' };
      }
      return { status: 200, headers, chunks: file.chunks(), replay: file.chunks, eol: '\n', cacheKey };
    }
    case 'csv':
    case 'futuresOptions': {
      if (!credentialsOk) return errorOutcome(errorLine(options.errorTexts, 'auth', {}));
      try {
        if (target.type === 'csv') {
          const records = CSV_PAGES[target.page]?.(ctx) ?? [];
          return {
            status: 200,
            headers: textHeaders,
            chunks: csvBody(renderRecords(records, eol, options.finalNewline)),
            eol,
            cacheKey,
          };
        }
        const records = futuresOptionRecords(ctx);
        const extended = options.futuresOptionsShape === 'extended';
        if (target.json) {
          const json = records.length
            ? `[${records.map((record) => optionJson(record, extended)).join(',\n')}]\n`
            : '[]\n';
          return {
            status: 200,
            headers: { 'content-type': 'application/json; charset=utf-8' },
            chunks: [json],
            eol: '\n',
            cacheKey,
          };
        }
        const lines = records.map((record) => optionCsvLine(record, extended));
        return {
          status: 200,
          headers: textHeaders,
          chunks: csvBody(joinLines(lines.length ? [lines] : [], eol, options.finalNewline)),
          eol,
          cacheKey,
        };
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        if (error.isSymbolError && options.unknownSymbol === 'empty')
          return { status: 200, headers: textHeaders, chunks: csvBody([]), eol };
        return errorOutcome(error.line);
      }
    }
  }
}

/** Starts an emulator on `options.host`, port `options.port` (0 = any free port), over HTTPS with `tls`. */
export async function startEmulator(
  partial: Partial<EmulatorOptions> = {},
  tls?: EmulatorTls,
): Promise<Emulator> {
  const options = resolveEmulatorOptions(partial);
  const requests: RecordedRequest[] = [];
  const hooks: EmulatorHooks = {};
  const cache: BodyCache = new Map();
  const rateWindow = new SlidingWindow();
  const connections = new WeakMap<Socket, number>();
  let connectionCount = 0;
  let inFlight = 0;
  let peakInFlight = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // a proxy forwards plain HTTP in absolute form (`GET http://host/path`), which a server must accept
    const target = (req.url ?? '/').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, '') || '/';
    const question = target.indexOf('?');
    const pathname = question < 0 ? target : target.slice(0, question);
    const rawQuery = question < 0 ? '' : target.slice(question + 1);
    const arrivedMs = performance.now();
    // the window counts arrivals, so `latency` delays a 429 like any other answer but never causes one
    const limited =
      req.method === 'GET' &&
      options.rateLimit !== undefined &&
      !rateWindow.admit(arrivedMs, options.rateLimit);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: pathname,
      query: parseQuery(rawQuery).all,
      rawQuery,
      headers: { ...req.headers },
      connection: connections.get(req.socket) ?? 0,
      arrivedMs,
      rateLimited: limited,
    };
    requests.push(recorded);
    const { afterAnswer } = hooks;
    if (afterAnswer) res.once('close', () => afterAnswer(recorded));
    await hooks.beforeAnswer?.(recorded);
    if (res.destroyed) return;
    if (options.latency > 0) {
      await new Promise((resolve) => setTimeout(resolve, options.latency));
      if (res.destroyed) return;
    }
    const gzip = options.gzip === 'auto' && acceptsGzip(req);
    const mode = { gzip, transfer: options.transfer };
    if (req.method !== 'GET') {
      await sendOutcome(
        res,
        { ...plain(405, 'Method Not Allowed\r\n'), headers: { 'content-type': 'text/plain', allow: 'GET' } },
        { gzip: false, transfer: 'length' },
      );
      return;
    }
    if (limited) {
      const refused = plain(429, 'Too Many Requests\r\n');
      refused.headers['retry-after'] = String(options.retryAfter);
      await sendOutcome(res, refused, { gzip: false, transfer: 'length' });
      return;
    }
    if (rawQuery.length > options.maxQueryLength) {
      await sendOutcome(res, plain(414, 'URI Too Long\r\n'), { gzip: false, transfer: 'length' });
      return;
    }
    const { delayMs, fault } = takeFaults(options.faults, pathname);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (res.destroyed) return;
    if (fault?.kind === 'hangUp') {
      res.socket?.destroy();
      return;
    }
    const eol = options.lineEnding === 'crlf' ? '\r\n' : '\n';
    if (fault && isEarlyFault(fault)) {
      await sendOutcome(res, earlyFaultOutcome(fault, eol, options.contentType), {
        gzip,
        transfer: 'length',
      });
      return;
    }
    const outcome = answer(req, pathname, rawQuery, options);
    if (fault?.kind === 'truncate' || fault?.kind === 'reset') {
      await sendCut(res, outcome, fault.afterBytes, fault.kind === 'truncate', gzip);
      return;
    }
    if (fault) {
      const faulty = bodyFaultOutcome(fault, outcome);
      const faultMode =
        fault.kind === 'badGzip'
          ? { gzip: false, transfer: 'chunked' as const }
          : { ...mode, transfer: 'chunked' as const };
      await sendOutcome(res, faulty, faultMode);
      return;
    }
    await sendOutcome(res, outcome, mode, options.cacheBodies ? cache : undefined);
  }

  const serving = createServing(tls, options.host, (req, res) => {
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`emulator bug: ${error instanceof Error ? error.message : String(error)}\r\n`);
      } else {
        res.destroy();
      }
    });
  });
  const { server } = serving;
  server.on(serving.connectionEvent, (socket: Socket) => {
    connectionCount += 1;
    connections.set(socket, connectionCount);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `${serving.scheme}://${host}:${port}`;
  const urls = {
    historical: `${url}/historical`,
    futuresOptions: `${url}/fo`,
    extras: `${url}/extras`,
    instruments: `${url}/instruments`,
  };
  return {
    url,
    urls,
    env: {
      MDGET_USERNAME: options.username,
      MDGET_PASSWORD: options.password,
      MDGET_HISTORICAL_URL: urls.historical,
      MDGET_FUTURES_OPTIONS_URL: urls.futuresOptions,
      MDGET_EXTRAS_URL: urls.extras,
      MDGET_EXCHANGES_PATH: options.exchangesPath,
      MDGET_INSTRUMENTS_URL: urls.instruments,
      ...(serving.ca ? { NODE_EXTRA_CA_CERTS: serving.ca.file } : {}),
    },
    ...(serving.ca ? { ca: serving.ca.pem } : {}),
    requests,
    options,
    hooks,
    get inFlight() {
      return inFlight;
    },
    get peakInFlight() {
      return peakInFlight;
    },
    resetPeak: () => {
      peakInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          serving.dispose();
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** A Last-Modified date that changes when the content does: a day of 2025 picked by its hash. */
function lastModifiedOf(body: Buffer): string {
  const day = createHash('sha1').update(body).digest().readUInt16BE(0) % 365;
  return new Date(Date.UTC(2025, 0, 1 + day)).toUTCString();
}
