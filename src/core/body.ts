import type { Transform } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import { isMdgetError, MdgetError } from './errors.js';
import { errorCode, isAbort, networkError } from './http.js';
import { redactText, redactUrl } from './redact.js';

type Headers = Record<string, string | string[] | undefined>;

/** The decoder for a response's content-encoding (spec §1.5: gzip or deflate), or none for identity. */
export function decoderFor(headers: Headers): Transform | undefined {
  const encoding = String(headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding.includes('gzip')) return createGunzip();
  if (encoding.includes('deflate')) return createInflate();
  return undefined;
}

/** The progress total: Content-Length, only when it counts the bytes we count (no content-encoding). */
export function progressTotal(headers: Headers): { totalBytes?: number } {
  const encoding = String(headers['content-encoding'] ?? 'identity').toLowerCase();
  const length = Number(headers['content-length']);
  return encoding === 'identity' && length > 0 ? { totalBytes: length } : {};
}

/**
 * A failure while reading a body as an MdgetError: zlib, socket and premature-close errors are a truncated
 * or broken transfer (exit 5), an abort is MDGET_ABORTED. Anything else is returned as it is (a bug).
 */
export function bodyError(error: unknown, url: URL, secrets: readonly (string | undefined)[] = []): unknown {
  if (isMdgetError(error)) return error;
  if (isAbort(error)) return new MdgetError('MDGET_ABORTED', 'interrupted', { cause: error });
  const code = errorCode(error);
  if (code.startsWith('Z_') || code.startsWith('UND_ERR') || code.startsWith('ERR_STREAM_PREMATURE')) {
    const message = error instanceof Error ? error.message : String(error);
    return new MdgetError(
      'MDGET_NETWORK',
      redactText(`truncated body: ${message} (${code}): ${redactUrl(url)}`, secrets),
      { cause: error },
    );
  }
  if (code.startsWith('E') && !code.startsWith('ERR_')) return networkError(error, url, secrets);
  return error;
}
