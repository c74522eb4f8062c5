import type { Readable, Transform } from 'node:stream';
import { redactUrl } from '../model/redact.js';
import { decoderFor, wireTotal } from './decode.js';
import { type Opener, REQUEST_HEADERS } from './exchange.js';
import { announcesHtml, type BodyKind, htmlPageError } from './html-page.js';

/** A response body ready to read: its (decoded) stages and the progress total. */
export interface BodySource {
  stages: (Readable | Transform)[];
  /** Bytes on the wire so far, and their total when the response gave a Content-Length. */
  wire: () => number;
  wireTotal?: number;
  /** A conditional request was answered 304: the body is empty and what the caller has stands. */
  notModified?: boolean;
  /** What the response said of its version, for a later conditional request. */
  validators?: Validators;
}

/** A response's version as HTTP gives it: what a conditional request sends back. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** The headers of a request made only if the resource changed since `validators`. */
export function conditionalHeaders(validators: Validators): Record<string, string> {
  return {
    ...REQUEST_HEADERS,
    ...(validators.etag ? { 'if-none-match': validators.etag } : {}),
    ...(validators.lastModified ? { 'if-modified-since': validators.lastModified } : {}),
  };
}

/** What opening needs: the run's scheduler, the secrets to redact, a listener told of each request. */
export interface OpenDeps {
  opener: Opener;
  secrets?: readonly (string | undefined)[];
  /** Told of each request before it is sent; the URL is redacted. */
  onRequest?: (url: string) => void;
}

/**
 * The first steps of every response, data or reference: open (status, retries: the scheduler), check what
 * the headers can tell (an HTML page announced where `kind` was expected), and decode (gzip, deflate). The
 * body's own checks follow in the stage that reads it: the response transform for data, refuseHtmlStart
 * and the parsers for reference bodies.
 */
export async function openBody(
  url: URL,
  deps: OpenDeps,
  kind: BodyKind = 'csv',
  options: { priority?: 'next' | 'ahead'; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<BodySource> {
  deps.onRequest?.(redactUrl(url));
  const response = await deps.opener.open(url, options);
  const validators = validatorsOf(response.headers);
  if (response.statusCode === 304) {
    response.body.resume();
    return { stages: [response.body], wire: response.received, notModified: true, validators };
  }
  if (announcesHtml(kind, response.headers)) {
    // undici reports its own destroy() as an 'error': nobody is reading, so drop it.
    response.body.on('error', () => {}).destroy();
    throw htmlPageError(url, deps.secrets);
  }
  const decoder = decoderFor(response.headers);
  const total = wireTotal(response.headers);
  return {
    stages: decoder ? [response.body, decoder] : [response.body],
    wire: response.received,
    ...(total === undefined ? {} : { wireTotal: total }),
    validators,
  };
}

function validatorsOf(headers: Record<string, string | string[] | undefined>): Validators {
  const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const etag = one(headers['etag']);
  const lastModified = one(headers['last-modified']);
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}
