/**
 * Fault injection, one switch per failure the service may show (docs/service.md#http-status): each fault hits
 * the requests whose endpoint matches, `times` times, then is used up. A `slow` fault delays and lets the
 * next matching fault (or the normal answer) follow.
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Fault } from './options.js';
import { collect, type Outcome } from './send.js';

const used = new WeakMap<Fault, number>();

function matches(fault: Fault, pathname: string): boolean {
  if (!fault.path) return true;
  const path = fault.path.replace(/^\/+/, '').toLowerCase();
  const lower = pathname.toLowerCase();
  return lower === `/${path}` || lower.endsWith(`/${path}`);
}

/** Takes the faults for this request: every matching `slow` one, then the first other one. */
export function takeFaults(faults: readonly Fault[], pathname: string): { delayMs: number; fault?: Fault } {
  let delayMs = 0;
  for (const fault of faults) {
    if (!matches(fault, pathname)) continue;
    const count = used.get(fault) ?? 0;
    if (fault.times !== undefined && count >= fault.times) continue;
    used.set(fault, count + 1);
    if (fault.kind === 'slow') {
      delayMs += fault.delayMs;
      continue;
    }
    return { delayMs, fault };
  }
  return { delayMs };
}

/** True for faults answered without looking at the request (the service never got to it). */
export function isEarlyFault(fault: Fault): boolean {
  return (
    fault.kind === 'status' ||
    fault.kind === 'html' ||
    fault.kind === 'redirect' ||
    fault.kind === 'inBandError'
  );
}

const MAINTENANCE_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head>\n' +
  '<body><h1>Scheduled maintenance</h1><p>The service is down for maintenance. Please try again later.</p></body></html>\n';

/** The answer of an early fault. */
export function earlyFaultOutcome(fault: Fault, eol: string, contentType: string): Outcome {
  switch (fault.kind) {
    case 'status': {
      const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      const body = fault.body ?? `${fault.status} ${STATUS_CODES[fault.status] ?? 'Error'}\r\n`;
      return { status: fault.status, headers, chunks: [body], eol };
    }
    case 'html':
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        chunks: [MAINTENANCE_PAGE],
        eol,
      };
    case 'redirect':
      return {
        status: 302,
        headers: { location: fault.location, 'content-type': 'text/plain' },
        chunks: ['Found\r\n'],
        eol,
      };
    case 'inBandError':
      return {
        status: 200,
        headers: { 'content-type': contentType },
        chunks: [`${fault.message}${eol}`],
        eol,
      };
    default:
      throw new Error(`not an early fault: ${fault.kind}`);
  }
}

/** The first `count` complete lines of a body and the text after them (at most ~1 MB is read). */
function leadingLines(outcome: Outcome, count: number): { lines: string[]; rest: string } {
  let text = '';
  for (const chunk of outcome.chunks) {
    text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (text.split(outcome.eol).length > count + 1 || text.length > 1_000_000) break;
  }
  const parts = text.split(outcome.eol);
  const lines = parts.slice(0, Math.min(count, parts.length - 1));
  return { lines, rest: parts.slice(lines.length).join(outcome.eol) };
}

/** Rewrites a normal outcome for a body fault: errorAfterData, partialLine, badGzip. */
export function bodyFaultOutcome(fault: Fault, outcome: Outcome): Outcome {
  const { eol } = outcome;
  switch (fault.kind) {
    case 'errorAfterData': {
      const { lines } = leadingLines(outcome, 3);
      return {
        ...outcome,
        status: 200,
        chunks: [[...lines, fault.message].join(eol) + eol],
        cacheKey: undefined,
      };
    }
    case 'partialLine': {
      // whole lines, then half a record with no line end: a connection closed in mid-record
      const { lines, rest } = leadingLines(outcome, 3);
      const next = rest.split(eol)[0] || '2025-03-14 09:30:00.000,14,@,213.4';
      const cut = next.slice(0, Math.max(1, Math.floor(next.length / 2)));
      return {
        ...outcome,
        status: 200,
        chunks: [lines.map((line) => line + eol).join('') + cut],
        cacheKey: undefined,
      };
    }
    case 'badGzip': {
      // a complete deflate stream without the 8-byte gzip trailer (CRC32, ISIZE)
      const gz = gzipSync(collect(outcome.chunks));
      return {
        ...outcome,
        headers: { ...outcome.headers, 'content-encoding': 'gzip' },
        chunks: [gz.subarray(0, gz.length - 8)],
        cacheKey: undefined,
      };
    }
    default:
      return outcome;
  }
}

/** Sends the first `afterBytes` bytes, then destroys the socket: a truncated or reset transfer. */
export async function sendCut(
  res: ServerResponse,
  outcome: Outcome,
  afterBytes: number,
  announceLength: boolean,
  gzip: boolean,
): Promise<void> {
  const whole = collect(outcome.chunks);
  const body = gzip ? gzipSync(whole) : whole;
  const headers: Record<string, string | number> = { ...outcome.headers };
  if (gzip) headers['content-encoding'] = 'gzip';
  if (announceLength) headers['content-length'] = body.length;
  res.writeHead(outcome.status, headers);
  const part = body.subarray(0, Math.min(afterBytes, Math.max(body.length - 1, 0)));
  // wait until the bytes reached the socket, so the client sees them before the reset
  if (part.length) await new Promise<void>((resolve) => res.write(part, () => resolve()));
  res.socket?.destroy();
  res.destroy();
}
