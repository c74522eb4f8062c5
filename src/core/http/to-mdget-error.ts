import { interruptedError, isMdgetError, MdgetError } from '../model/errors.js';
import { redactText, redactUrl } from '../model/redact.js';
import { errorCode, isAbort, networkError } from './network-errors.js';

/**
 * Any failure of a request or its body as an MdgetError, mapped here only: an MdgetError as it
 * is; an abort as MDGET_ABORTED; zlib, undici socket and premature-close errors as a truncated or broken
 * transfer (MDGET_NETWORK, exit 5); other system errors as network failures naming the redacted URL.
 * Anything else is unexpected and rethrown: a bug, which the CLI reports with exit 1.
 */
export function toMdgetError(
  error: unknown,
  url?: URL,
  secrets: readonly (string | undefined)[] = [],
): MdgetError {
  if (isMdgetError(error)) return error;
  if (isAbort(error)) return interruptedError(error);
  if (url) {
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
  }
  throw error;
}
