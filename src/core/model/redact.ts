/**
 * Credentials ride in the query string on every historical request (docs/service.md#requests), so any URL,
 * message or log line a human may see goes through these functions first.
 */
const SECRET_PARAMS = new Set(['username', 'password']);
export const REDACTED = '***';

/** The URL with the values of username/password query parameters and any userinfo replaced by ***. */
export function redactUrl(input: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    return redactText(String(input), []);
  }
  if (url.username) url.username = REDACTED;
  if (url.password) url.password = REDACTED;
  const keys = [...url.searchParams.keys()];
  if (!keys.some((key) => SECRET_PARAMS.has(key.toLowerCase()))) return url.href;
  // Rebuild by hand so the other parameters keep their exact encoding.
  const query = url.search
    .slice(1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return SECRET_PARAMS.has(safeDecode(name).toLowerCase()) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.origin}${url.pathname}?${query}${url.hash}`;
}

/**
 * The text with every occurrence of each secret (raw, percent-encoded and form-encoded), every
 * `username=`/`password=` query value and every URL userinfo replaced by ***. Used on every message, log line and report.
 */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text
    .replace(/([?&](?:username|password)=)[^&\s"'<>]*/gi, `$1${REDACTED}`)
    .replace(/(\w:\/\/)[^/@\s"'<>]+@/g, `$1${REDACTED}@`);
  for (const secret of secrets) {
    // Replacing a 1-3 character secret everywhere would mangle messages and so reveal it; such values
    // are still redacted wherever they ride as username=/password= parameters.
    if (!secret || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), formEncode(secret)])) {
      out = out.split(form).join(REDACTED);
    }
  }
  return out;
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
