import { interruptedError, MdgetError } from '../model/errors.js';
import { redactText, redactUrl } from '../model/redact.js';
import { proxyFailure, tlsFailure } from './failure-words.js';

const RETRYABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** True for failures worth another try: connection problems and timeouts (not aborts, not bad input). */
export function isRetryableNetworkError(error: unknown): boolean {
  return RETRYABLE_CODES.has(errorCode(error));
}

/**
 * Converts a thrown network-level error into an MdgetError, with the URL redacted: a proxy's refusal or
 * absence names the proxy, a certificate that fails verification is said in words naming the host.
 */
export function networkError(
  error: unknown,
  url: URL,
  secrets: readonly (string | undefined)[] = [],
  proxy?: string,
): MdgetError {
  const refusal = proxy === undefined ? undefined : proxyFailure(error, proxy);
  if (refusal) return new MdgetError('MDGET_NETWORK', redactText(`${refusal}: ${redactUrl(url)}`, secrets));
  if (isAbort(error)) return interruptedError(error);
  const tls = tlsFailure(error, url);
  if (tls) return new MdgetError('MDGET_NETWORK', redactText(`${tls}: ${redactUrl(url)}`, secrets));
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const what = code.includes('TIMEOUT') ? 'timed out' : 'failed';
  return new MdgetError(
    'MDGET_NETWORK',
    redactText(`request ${what}: ${redactUrl(url)}: ${message}${code ? ` (${code})` : ''}`, secrets),
  );
}

/** The string `code` of a Node or undici error, '' when absent (DOMException codes are numbers). */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/** True when the error comes from our AbortSignal. */
export function isAbort(error: unknown): boolean {
  const e = error as { name?: string; code?: string } | undefined;
  return e?.name === 'AbortError' || e?.code === 'ABORT_ERR' || e?.code === 'UND_ERR_ABORTED';
}
