import type { Readable, Transform } from 'node:stream';
import { redactUrl } from '../model/redact.js';
import { decoderFor, wireTotal } from './decode.js';
import type { Opener } from './exchange.js';
import { announcesHtml, type BodyKind, htmlPageError } from './html-page.js';

/** A response body ready to read: its (decoded) stages and the progress total. */
export interface BodySource {
  stages: (Readable | Transform)[];
  /** Bytes on the wire so far, and their total when the response gave a Content-Length. */
  wire: () => number;
  wireTotal?: number;
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
  options: { priority?: 'next' | 'ahead'; signal?: AbortSignal } = {},
): Promise<BodySource> {
  deps.onRequest?.(redactUrl(url));
  const response = await deps.opener.open(url, options);
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
  };
}
