import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { interruptedError, isMdgetError, MdgetError } from '../model/errors.js';
import { redactText, redactUrl } from '../model/redact.js';
import { dispatchGet } from './dispatch.js';
import type { RateLimiter } from './rate-limit.js';
import { type RetryPolicy, retryAfterMs, retryDelayMs } from './retry.js';

/** Creates the one undici Agent of a run: keep-alive, timeouts, no redirects (credentials ride in URLs). */
export function createDispatcher(options: { timeoutMs: number; connections?: number }): Dispatcher {
  return new Agent({
    connections: options.connections ?? 8,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: Math.min(options.timeoutMs, 30_000),
  });
}

/** What a run needs to send requests: the dispatcher, the abort signal, the retry policy. */
export interface HttpDeps {
  dispatcher: Dispatcher;
  signal?: AbortSignal;
  retry: RetryPolicy;
  /** Told before each retry, with the redacted reason; the CLI shows it with --verbose. */
  onRetry?: (info: { url: string; attempt: number; delayMs: number; reason: string }) => void;
  random?: () => number;
  secrets?: readonly (string | undefined)[];
  /** Pacing shared by the run's requests (--rate, Retry-After); none: requests start at once. */
  limiter?: RateLimiter;
}

export interface OpenResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as the server sent it (content-encoding not undone); see response-body.ts. */
  body: Readable;
  /** Bytes of the body received so far, as sent. */
  received(): number;
}

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

/** Converts a thrown network-level error into an MdgetError, with the URL redacted. */
export function networkError(
  error: unknown,
  url: URL,
  secrets: readonly (string | undefined)[] = [],
): MdgetError {
  if (isAbort(error)) return interruptedError(error);
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

/**
 * Sends a GET and returns a 2xx response with its body unread. 429, 5xx and network errors are retried
 * per policy (honouring Retry-After); 3xx fails (never followed), other 4xx are the service refusing.
 * Non-2xx bodies are never data: at most 4 KiB is read for the message, the rest dumped.
 */
export async function openResponse(
  url: URL,
  deps: HttpDeps,
  headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate' },
): Promise<OpenResponse> {
  const secrets = deps.secrets ?? [];
  for (let attempt = 1; ; attempt++) {
    let reason: string;
    let retryAfter: string | undefined;
    try {
      await deps.limiter?.acquire(deps.signal);
      const response = await dispatchGet(url, deps.dispatcher, {
        headers,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      const { statusCode } = response;
      if (statusCode >= 200 && statusCode < 300) {
        deps.limiter?.recover();
        return response;
      }
      const firstLine = await readFirstLine(
        response.body,
        String(response.headers['content-encoding'] ?? ''),
      );
      const where = redactUrl(url);
      if (statusCode >= 300 && statusCode < 400) {
        const location = String(response.headers.location ?? '');
        throw new MdgetError(
          'MDGET_HTTP',
          redactText(
            `HTTP ${statusCode} from ${where}: redirect to ${redactUrl(location)} not followed`,
            secrets,
          ),
          { status: statusCode, url: where },
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
            url: where,
            ...(firstLine ? { detail: redactText(firstLine, secrets) } : {}),
          },
        );
      }
      reason = `HTTP ${statusCode}${firstLine ? `: ${firstLine}` : ''}`;
      retryAfter = header(response.headers['retry-after']);
      if (statusCode === 429 || retryAfter !== undefined) {
        deps.limiter?.slowDown(retryAfterMs(retryAfter, Date.now()));
      }
      if (attempt > deps.retry.retries) {
        throw new MdgetError(
          'MDGET_HTTP',
          redactText(`server failure after ${attempt} attempt(s): ${reason}: ${where}`, secrets),
          { status: statusCode, url: where },
        );
      }
    } catch (error) {
      if (isMdgetError(error)) throw error;
      if (isAbort(error) || !isRetryableNetworkError(error) || attempt > deps.retry.retries) {
        throw networkError(error, url, secrets);
      }
      reason = networkError(error, url, secrets).message;
    }
    const delayMs = retryDelayMs(attempt, deps.retry, retryAfter, Date.now(), deps.random ?? Math.random);
    deps.onRetry?.({ url: redactUrl(url), attempt, delayMs, reason: redactText(reason, secrets) });
    try {
      await sleep(delayMs, undefined, { signal: deps.signal });
    } catch (error) {
      throw networkError(error, url, secrets);
    }
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The first non-blank line of an error body (≤ 4 KiB read, rest dumped, gzip undone), at most 200 characters. */
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
