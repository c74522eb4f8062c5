import {
  type BodySource,
  conditionalHeaders,
  type OpenDeps,
  openBody,
  type Validators,
} from '../http/open-body.js';
import { guarded, type ReadBody, readBody } from '../http/read-body.js';
import { type Config, requireConfig } from '../model/config.js';
import { isMdgetError, MdgetError } from '../model/errors.js';
import { redactText } from '../model/redact.js';
import { buildExchangesUrl, buildInstrumentsUrl } from '../plan/urls.js';
import type { ProgressEvent } from '../run/run-types.js';
import { RequestScheduler } from '../run/scheduler.js';
import { type Exchange, parseExchangesXml } from './exchanges.js';
import { type InstrumentEntry, parseInstrumentArray } from './instrument-stream.js';
import type { FetchedExchanges, ReferenceDeps } from './options.js';

/**
 * Fetches and parses the exchanges list (docs/service.md#exchanges-list) through the path every response
 * takes: openBody, readBody (decoded, no HTML page), then the parser. No credentials go to the extras host.
 */
export async function fetchExchanges(config: Config, deps: ReferenceDeps): Promise<FetchedExchanges> {
  const fetched = await exchangesIfChanged(config, deps, {});
  if (fetched === 'not-modified')
    throw new MdgetError('MDGET_HTTP', 'the exchanges list: 304 to a plain request');
  return fetched;
}

/** The exchanges list, unless it is still the version `since` names (a 304): then 'not-modified'. */
export async function exchangesIfChanged(
  config: Config,
  deps: ReferenceDeps,
  since: Validators,
): Promise<FetchedExchanges | 'not-modified'> {
  requireConfig(config, ['extras']);
  const url = buildExchangesUrl(config);
  const source = await openBody(url, openerOf(deps), 'xml', { headers: conditionalHeaders(since) });
  if (source.notModified) return 'not-modified';
  const body = readBody(source, 'xml', url, deps.secrets);
  // The list is a few KiB of attributes: held whole, it is parsed once and its prolog's encoding honoured.
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body.stream) chunks.push(chunk as Buffer);
    await body.settled();
  } catch (error) {
    throw body.errorFor(error);
  }
  const xml = Buffer.concat(chunks);
  return { exchanges: parseExchangesXml(xml), xml, validators: source.validators ?? {} };
}

/** The entries of an exchange's instruments file as they arrive, and `done` to call however reading ends. */
export interface InstrumentsDownload {
  entries: AsyncGenerator<InstrumentEntry>;
  /** Stops the body if it is still running and tells progress the download ended. */
  done(): void;
  /** The file's version, for a later conditional request. */
  validators: Validators;
}

/**
 * Opens `<id>-instruments.json` (docs/service.md#instruments-files) the way every response is opened and
 * streams its entries; a 4xx is MDGET_SERVICE naming the exchange and the status. Failures of the socket,
 * zlib or the abort signal come out of `entries` as MdgetErrors naming the (redacted) URL.
 */
export async function downloadInstruments(
  config: Config,
  exchange: Exchange,
  deps: ReferenceDeps,
): Promise<InstrumentsDownload> {
  const download = await instrumentsIfChanged(config, exchange, deps, {});
  if (download === 'not-modified') throw new MdgetError('MDGET_HTTP', 'instruments: 304 to a plain request');
  return download;
}

/** As downloadInstruments, unless the file is still the version `since` names: then 'not-modified'. */
export async function instrumentsIfChanged(
  config: Config,
  exchange: Exchange,
  deps: ReferenceDeps,
  since: Validators,
): Promise<InstrumentsDownload | 'not-modified'> {
  const url = buildInstrumentsUrl(config, exchange.id);
  let source: BodySource;
  try {
    source = await openBody(url, openerOf(deps), 'json', { headers: conditionalHeaders(since) });
    if (source.notModified) return 'not-modified';
  } catch (error) {
    if (isMdgetError(error) && error.code === 'MDGET_SERVICE') throw refusal(error, exchange, deps.secrets);
    throw error;
  }
  const progress = deps.onProgress && progressOf(source, `instruments ${exchange.id}`, deps.onProgress);
  const body: ReadBody = readBody(source, 'json', url, deps.secrets, progress?.onBytes);
  return {
    entries: guarded(parseInstrumentArray(body.stream), body),
    done: () => {
      body.stream.destroy();
      progress?.done();
    },
    validators: source.validators ?? {},
  };
}

/** A reference body is one request: a scheduler of one slot paces and retries it as it does downloads. */
function openerOf(deps: ReferenceDeps): OpenDeps {
  return {
    opener: new RequestScheduler({ ...deps, concurrency: 1 }),
    ...(deps.secrets ? { secrets: deps.secrets } : {}),
    ...(deps.onRequest ? { onRequest: deps.onRequest } : {}),
  };
}

/** How an exchange is named in messages: its id, and its description when it has one. */
export const exchangeLabel = (exchange: Exchange): string =>
  exchange.description ? `exchange ${exchange.id} (${exchange.description})` : `exchange ${exchange.id}`;

// 404 is how a static host says "no such file" (docs/service.md#instruments-files): name the exchange it was
// for. The body's first line is kept only when it is plain text: an error body may come gzipped.
/** The 4xx of an instruments file as a one-line MDGET_SERVICE naming the exchange, status and URL. */
function refusal(
  error: MdgetError,
  exchange: Exchange,
  secrets: readonly (string | undefined)[] = [],
): MdgetError {
  const status = error.status ?? '4xx';
  const where = error.url ?? '';
  const quoted = error.detail !== undefined && /^[\x20-\x7e]+$/.test(error.detail) ? `: ${error.detail}` : '';
  const what = status === 404 ? 'no instruments file' : 'the instruments host refused';
  return new MdgetError(
    'MDGET_SERVICE',
    redactText(`${exchangeLabel(exchange)}: ${what} (HTTP ${status}) ${where}${quoted}`, secrets),
    {
      cause: error,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.url === undefined ? {} : { url: error.url }),
      ...(error.detail === undefined ? {} : { detail: error.detail }),
    },
  );
}

/** Progress events of one body: bytes as received, and their total when Content-Length gave one. */
function progressOf(
  source: BodySource,
  label: string,
  onProgress: (event: ProgressEvent) => void,
): { onBytes: (bytes: number) => void; done: () => void } {
  const event = (bytes: number, done: boolean): ProgressEvent => ({
    id: 0,
    label,
    output: '',
    bytes,
    wireBytes: source.wire(),
    ...(source.wireTotal === undefined ? {} : { wireTotal: source.wireTotal }),
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
