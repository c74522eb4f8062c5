import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { MdgetError } from '../model/errors.js';
import { redactText, redactUrl } from '../model/redact.js';
import { dispatchGet } from './dispatch.js';
import { isAbort, isRetryableNetworkError, networkError } from './network-errors.js';
import { proxyOf } from './proxy-route.js';

/** A 2xx response (or a 304 to a conditional request) with its body unread. */
export interface OpenResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as the server sent it (content-encoding not undone); see dispatch.ts. */
  body: Readable;
  /** Bytes of the body received so far, as sent. */
  received(): number;
}

/** What one attempt of a GET gave: a response to read, or a failure worth another try. */
export type Attempt =
  | { ok: true; response: OpenResponse }
  | {
      ok: false;
      /** The failure to report when no try is left, after `attempts` tries. */
      failure(attempts: number): MdgetError;
      /** One line for the retry notice. */
      reason: string;
      /** The server asked to slow down: 429, or any status with Retry-After. */
      slowDown: boolean;
      retryAfter?: string;
    };

/** Opens responses for a run: the scheduler (run/scheduler.ts) behind every request. */
export interface Opener {
  open(url: URL, options?: OpenOptions): Promise<OpenResponse>;
}

export interface OpenOptions {
  headers?: Record<string, string>;
  /** `next`: the request an output waits for; `ahead`: a read-ahead, which waits for free room. */
  priority?: 'next' | 'ahead';
  signal?: AbortSignal;
}

/** The headers of every request: bodies may come compressed (gzip, deflate). */
export const REQUEST_HEADERS: Record<string, string> = { 'accept-encoding': 'gzip, deflate' };

/**
 * One GET. 2xx is a response; 429, 5xx and network errors are failures worth another try; 3xx fails (never
 * followed: credentials ride in the URL), other 4xx are the service refusing (thrown). Non-2xx bodies are
 * never data: at most 4 KiB is read for the message, the rest dropped.
 */
export async function attemptGet(
  url: URL,
  dispatcher: Dispatcher,
  options: {
    headers: Record<string, string>;
    signal?: AbortSignal;
    secrets: readonly (string | undefined)[];
  },
): Promise<Attempt> {
  const { secrets } = options;
  let response: OpenResponse;
  try {
    response = await dispatchGet(url, dispatcher, {
      headers: options.headers,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    const failure = networkError(error, url, secrets, proxyOf(dispatcher, url));
    if (isAbort(error) || !isRetryableNetworkError(error)) throw failure;
    return { ok: false, failure: () => failure, reason: failure.message, slowDown: false };
  }
  const { statusCode } = response;
  if (statusCode >= 200 && statusCode < 300) return { ok: true, response };
  // Not modified: the answer to a conditional request, whose caller keeps what it has.
  if (statusCode === 304 && isConditional(options.headers)) return { ok: true, response };
  const firstLine = await readFirstLine(response.body, String(response.headers['content-encoding'] ?? ''));
  const proxy = proxyOf(dispatcher, url);
  // an answer through a proxy may be the proxy's own (a 502 when it cannot reach the host): say which
  const where = `${redactUrl(url)}${proxy ? ` (through proxy ${redactUrl(proxy).replace(/\/$/, '')})` : ''}`;
  if (statusCode >= 300 && statusCode < 400) {
    const location = String(response.headers.location ?? '');
    throw new MdgetError(
      'MDGET_HTTP',
      redactText(
        `HTTP ${statusCode} from ${where}: redirect to ${redactUrl(location)} not followed`,
        secrets,
      ),
      { status: statusCode, url: redactUrl(url) },
    );
  }
  if (statusCode !== 429 && statusCode < 500) {
    throw new MdgetError(
      'MDGET_SERVICE',
      redactText(
        `service refused (HTTP ${statusCode}) ${where}${firstLine ? `: ${firstLine}` : ''}`,
        secrets,
      ),
      {
        status: statusCode,
        url: redactUrl(url),
        ...(firstLine ? { detail: redactText(firstLine, secrets) } : {}),
      },
    );
  }
  const reason = `HTTP ${statusCode}${firstLine ? `: ${firstLine}` : ''}`;
  const retryAfter = header(response.headers['retry-after']);
  return {
    ok: false,
    reason,
    slowDown: statusCode === 429 || retryAfter !== undefined,
    ...(retryAfter === undefined ? {} : { retryAfter }),
    failure: (attempts) =>
      new MdgetError(
        'MDGET_HTTP',
        redactText(`server failure after ${attempts} attempt(s): ${reason}: ${where}`, secrets),
        { status: statusCode, url: redactUrl(url) },
      ),
  };
}

const isConditional = (headers: Record<string, string>): boolean =>
  'if-none-match' in headers || 'if-modified-since' in headers;

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The first non-blank line of an error body (≤ 4 KiB read, rest dropped, gzip undone), at most 200 characters. */
async function readFirstLine(body: Readable, encoding: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= 4096) break;
    }
  } catch {
    // the message is best effort; the status already says what failed
  }
  body.destroy();
  let bytes = Buffer.concat(chunks);
  if (/gzip|deflate/i.test(encoding)) {
    try {
      // A cut stream still yields what it decoded so far: enough for the first line.
      bytes = zlib.unzipSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    } catch {
      return '';
    }
  }
  const text = bytes.subarray(0, 4096).toString('utf8');
  const line = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 200);
}
