import { Transform } from 'node:stream';
import { releaseChunks } from '../buffers/chunk-pool.js';
import { MdgetError } from '../model/errors.js';
import { redactText, redactUrl } from '../model/redact.js';

/**
 * What a body should be: `csv`, a data endpoint's (its futures options JSON included), which never starts
 * with `<` and whose Content-Type means nothing (docs/service.md#response-lines); `json`, an instruments
 * file, which never starts with `<` either; `xml`, the exchanges list, which always does.
 */
export type BodyKind = 'csv' | 'json' | 'xml';

type Headers = Record<string, string | string[] | undefined>;

// An HTML page can be well-formed XML without a single `exchange`: only a doctype or <html> tells it apart.
const HTML_DOCUMENT = /^(<\?xml[^>]*>\s*)?<(!doctype\s+html|html)[\s>]/i;

/** Bytes of a body's start enough to tell an HTML document from XML: a prolog, then a doctype. */
const HTML_HEAD_BYTES = 512;

// A maintenance page comes with 200 (docs/service.md#http-status): the status says nothing, the page must be
// seen.
/** True when a response's Content-Type announces HTML where `kind` was expected (never for `csv`). */
export function announcesHtml(kind: BodyKind, headers: Headers): boolean {
  if (kind === 'csv') return false;
  return String(headers['content-type'] ?? '')
    .toLowerCase()
    .includes('text/html');
}

/** True when a body's start (`head`: its first line, or up to HTML_HEAD_BYTES) is an HTML page, not `kind`. */
export function startsAsHtml(kind: BodyKind, head: string): boolean {
  const text = head.trimStart();
  return kind === 'xml' ? HTML_DOCUMENT.test(text.slice(0, HTML_HEAD_BYTES)) : text.startsWith('<');
}

/**
 * The body unchanged once its start was seen to be no HTML page (startsAsHtml), else failing with
 * htmlPageError: the check stage of a reference body. At most HTML_HEAD_BYTES are held back.
 */
export function refuseHtmlStart(
  kind: BodyKind,
  url: URL,
  secrets: readonly (string | undefined)[],
): Transform {
  const held: Buffer[] = [];
  let size = 0;
  let seen = false;
  const release = (stream: Transform): Error | undefined => {
    seen = true;
    const head = Buffer.concat(held);
    releaseChunks(held); // copied into `head`
    held.length = 0;
    if (startsAsHtml(kind, head.toString('latin1'))) return htmlPageError(url, secrets);
    if (head.length > 0) stream.push(head);
    return undefined;
  };
  return new Transform({
    // Chunk by chunk to the parser that iterates it: a byte-mode read() joins whatever is buffered into a
    // fresh buffer, and the decoder's pooled chunks (inflate.ts) would never come back to the pool.
    readableObjectMode: true,
    readableHighWaterMark: 4,
    transform(chunk: Buffer, _encoding, callback) {
      if (seen) return callback(null, chunk);
      held.push(chunk);
      size += chunk.length;
      callback(size >= HTML_HEAD_BYTES ? release(this) : undefined);
    },
    flush(callback) {
      callback(seen ? undefined : release(this));
    },
  });
}

/** The one error for an HTML page instead of data: MDGET_HTTP (exit 5), status 200, URL redacted. */
export function htmlPageError(url: URL, secrets: readonly (string | undefined)[] = []): MdgetError {
  const where = redactUrl(url);
  return new MdgetError(
    'MDGET_HTTP',
    redactText(`server sent an HTML page instead of data (maintenance?): ${where}`, secrets),
    { status: 200, url: where },
  );
}
