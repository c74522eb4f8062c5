import type { Transform } from 'node:stream';
import { inflater } from './inflate.js';
import { toMdgetError } from './to-mdget-error.js';

type Headers = Record<string, string | string[] | undefined>;

/**
 * The decoder for a response's content-encoding (gzip or deflate: docs/service.md#compression-and-transfer),
 * or none for identity.
 */
export function decoderFor(headers: Headers): Transform | undefined {
  const encoding = String(headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding.includes('gzip')) return inflater('gzip');
  if (encoding.includes('deflate')) return inflater('deflate');
  return undefined;
}

/** The body's size on the wire from Content-Length, when the response gave one. */
export function wireTotal(headers: Headers): number | undefined {
  const length = Number(headers['content-length']);
  return length > 0 ? length : undefined;
}

/** A failure while reading a body as an MdgetError where it is one (see toMdgetError), else itself (a bug). */
export function bodyError(error: unknown, url: URL, secrets: readonly (string | undefined)[] = []): unknown {
  try {
    return toMdgetError(error, url, secrets);
  } catch {
    return error;
  }
}
