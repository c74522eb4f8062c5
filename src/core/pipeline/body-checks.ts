import { htmlPageError, startsAsHtml } from '../http/html-page.js';
import { MdgetError } from '../model/errors.js';
import type { RecordShape } from '../model/record-shapes.js';
import { redactText, redactUrl } from '../model/redact.js';

/**
 * The checks a data body passes on its way (docs/service.md#in-band-errors), each a thrown MdgetError: an
 * in-band `Error` line (MDGET_SERVICE, exit 4), an HTML or otherwise foreign page (MDGET_HTTP, exit 5), and a
 * last line cut short by a dropped connection (MDGET_NETWORK, exit 5; the output is never committed).
 */
export interface CheckContext {
  url: URL;
  shape: RecordShape;
  secrets: readonly (string | undefined)[];
}

const ERROR_RE = /error/i;

/** What the first non-blank line says the body is. */
export type FirstLine = { kind: 'records'; fieldCount: number } | { kind: 'json' };

/** Classifies the first non-blank line; throws for an in-band error, an HTML page or a non-JSON JSON body. */
export function checkFirstLine(first: string, jsonBody: boolean, ctx: CheckContext): FirstLine {
  const firstChar = first.trimStart()[0];
  if (jsonBody && (firstChar === '[' || firstChar === '{')) return { kind: 'json' };
  // the URL is redacted only for a message: every body passes here
  if (ERROR_RE.test(first))
    fail(ctx, 'MDGET_SERVICE', `service error: ${first.trim().slice(0, 300)} (${redactUrl(ctx.url)})`);
  if (startsAsHtml('csv', first)) throw htmlPageError(ctx.url, ctx.secrets);
  if (jsonBody)
    fail(ctx, 'MDGET_HTTP', `expected a JSON body, got '${first.slice(0, 80)}': ${redactUrl(ctx.url)}`);
  return { kind: 'records', fieldCount: first.split(',').length };
}

/** Throws MDGET_SERVICE when a complete line after the first holds `error` and is no record. */
export function checkLaterLines(lines: Buffer, ctx: CheckContext): void {
  const line = findErrorLine(lines);
  if (line !== undefined && !ctx.shape.matches(line.trim())) {
    fail(
      ctx,
      'MDGET_SERVICE',
      `service error after data: ${line.trim().slice(0, 300)} (${redactUrl(ctx.url)})`,
    );
  }
}

/** The body's last line: an error line, or (on checked endpoints) a record cut short, fails it. */
export function checkLastLine(line: string, ctx: CheckContext): void {
  if (line.trim() === '') return;
  if (ERROR_RE.test(line) && !ctx.shape.matches(line)) {
    fail(
      ctx,
      'MDGET_SERVICE',
      `service error after data: ${line.trim().slice(0, 300)} (${redactUrl(ctx.url)})`,
    );
  }
  if (ctx.shape.checked && !ctx.shape.matches(line.trim())) {
    fail(
      ctx,
      'MDGET_NETWORK',
      `truncated body: last line '${line.slice(0, 80)}' is incomplete (${redactUrl(ctx.url)})`,
    );
  }
}

/** Longest line accepted; records are well under 1 KiB. */
const MAX_LINE = 1024 * 1024;

/** A line longer than any record (no line end for MAX_LINE bytes) is not this endpoint's data. */
export function checkLineLength(pending: number, ctx: CheckContext): void {
  if (pending > MAX_LINE) {
    fail(
      ctx,
      'MDGET_HTTP',
      `no line end in ${MAX_LINE} bytes: not this endpoint's data (${redactUrl(ctx.url)})`,
    );
  }
}

/** Throws an MdgetError with the message redacted. */
export function fail(
  ctx: { secrets: readonly (string | undefined)[]; url?: URL },
  code: 'MDGET_SERVICE' | 'MDGET_HTTP' | 'MDGET_NETWORK',
  message: string,
): never {
  throw new MdgetError(code, redactText(message, ctx.secrets), {
    status: 200,
    ...(ctx.url ? { url: redactUrl(ctx.url) } : {}),
  });
}

/** The first non-blank line of `bytes` if a line end follows it, else undefined. */
export function firstLine(bytes: Buffer): string | undefined {
  let start = 0;
  for (;;) {
    let end = -1;
    for (const b of [10, 13]) {
      const e = bytes.indexOf(b, start);
      if (e >= 0 && (end < 0 || e < end)) end = e;
    }
    if (end < 0) return undefined;
    const line = bytes.subarray(start, end).toString('utf8');
    if (line.trim() !== '') return line.trim();
    start = end + 1;
  }
}

const ERROR_BYTES = [0x65, 0x72, 0x72, 0x6f, 0x72]; // "error"

/**
 * The first line of `bytes` holding `error` in any case, or undefined. A native scan for the bytes r/R,
 * which records hardly ever hold, keeps this cheap; only a hit costs a look at its line.
 */
function findErrorLine(bytes: Buffer): string | undefined {
  for (const r of [0x72, 0x52]) {
    for (let p = bytes.indexOf(r); p >= 0; p = bytes.indexOf(r, p + 1)) {
      // an r is the 2nd, 3rd or 5th letter of "error"
      for (const start of [p - 1, p - 2, p - 4]) {
        if (start < 0 || start + 5 > bytes.length) continue;
        if (ERROR_BYTES.every((c, i) => (bytes[start + i]! | 0x20) === c)) return lineAround(bytes, start);
      }
    }
  }
  return undefined;
}

function lineAround(bytes: Buffer, at: number): string {
  const from = Math.max(bytes.lastIndexOf(10, at), bytes.lastIndexOf(13, at)) + 1;
  const lf = bytes.indexOf(10, at);
  const cr = bytes.indexOf(13, at);
  const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  return bytes.subarray(from, end < 0 ? bytes.length : end).toString('utf8');
}
