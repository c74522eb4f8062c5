import { redactUrl } from '../model/redact.js';

/** Why a certificate failed verification, in words; the key is the code Node's TLS gives. */
const TLS_REASONS: Record<string, string> = {
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another host name',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed by an authority not trusted here',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in an authority not trusted here',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate is signed by an authority not trusted here',
  UNABLE_TO_GET_ISSUER_CERT: 'its certificate is signed by an authority not trusted here',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate is signed by an authority not trusted here',
  CERT_SIGNATURE_FAILURE: 'its certificate has a bad signature',
  CERT_REVOKED: 'its certificate was revoked',
  ERR_SSL_WRONG_VERSION_NUMBER: 'it does not speak TLS on this port (an http:// server?)',
};

/** What a trusted authority needs: where to put a private CA (docs/cli.md#tls). */
const TLS_HINT = 'a private CA goes in NODE_EXTRA_CA_CERTS';

/** Connection failures that, on a proxied request, mean the proxy itself could not be reached. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** What a proxy's refusal means, by the status it answered with. */
const PROXY_STATUSES: Record<number, string> = {
  407: '407 Proxy Authentication Required: check the user and password in the proxy URL',
  403: '403 Forbidden: the proxy does not allow this host or port',
  500: '500 Internal Server Error: the proxy failed, often because it could not reach the host',
  502: '502 Bad Gateway: the proxy could not reach the host',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout: the proxy could not reach the host in time',
};

/**
 * One line for a request that failed at its proxy (refused with a status, or unreachable), naming the
 * proxy with its credentials redacted; undefined when the failure was not the proxy's.
 */
export function proxyFailure(error: unknown, proxy: string): string | undefined {
  const name = redactUrl(proxy).replace(/\/$/, '');
  const message = error instanceof Error ? error.message : '';
  // undici says a refusal only in words: "Proxy response (407) !== 200 when HTTP Tunneling" for CONNECT,
  // "Proxy Authentication Required (407)" for a request in absolute form
  const status =
    /^Proxy response \((\d{3})\)/.exec(message)?.[1] ??
    /^Proxy Authentication Required \((407)\)/.exec(message)?.[1];
  if (status)
    return `proxy ${name} refused the request: ${PROXY_STATUSES[Number(status)] ?? `HTTP ${status}`}`;
  const code = codeOf(error);
  if (UNREACHABLE.has(code)) return `cannot reach proxy ${name}: ${message || code} (${code})`;
  return undefined;
}

/** One line for a TLS failure in words naming the host, or undefined when the failure is not TLS. */
export function tlsFailure(error: unknown, url: URL): string | undefined {
  // a tunnel through a proxy wraps the TLS error of the host behind it
  const inner = codeOf(error) === 'UND_ERR_PRX_TLS' ? (error as { cause?: unknown }).cause : error;
  const code = codeOf(inner);
  const reason = TLS_REASONS[code];
  if (!reason) return undefined;
  const hint = reason.includes('authority') ? `; ${TLS_HINT}` : '';
  return `TLS: cannot trust ${url.host}: ${reason} (${code})${hint}`;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}
