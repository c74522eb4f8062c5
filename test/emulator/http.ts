import { type Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { Emulator } from '../../src/emulator/index.js';

/** A raw response: status, headers and the body bytes as sent (never decoded). */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Set when the transfer failed (reset, truncation). */
  error?: Error;
}

/**
 * GETs a URL with node:http (no decompression, no redirects); resolves even when the body breaks off.
 * `agent`: node's global agent unless given (`false`: a fresh connection).
 */
export function get(
  url: string,
  headers: Record<string, string> = {},
  agent?: Agent | false,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, ...(agent === undefined ? {} : { agent }) }, (res) => {
      const chunks: Buffer[] = [];
      const done = (error?: Error) =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ...(error ? { error } : {}),
        });
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done());
      res.on('error', (error) => done(error));
      res.on('aborted', () => done(new Error('aborted')));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The query string of a historical request with the emulator's credentials. */
export function withCredentials(emu: Emulator, query: Record<string, string>): string {
  return new URLSearchParams({
    username: emu.options.username,
    password: emu.options.password,
    ...query,
  }).toString();
}

/** GETs a historical page with credentials; gzip bodies are inflated. */
export async function historical(
  emu: Emulator,
  page: string,
  query: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const response = await get(`${emu.urls.historical}/${page}?${withCredentials(emu, query)}`, headers);
  if (response.headers['content-encoding'] === 'gzip' && !response.error)
    return { ...response, body: gunzipSync(response.body) };
  return response;
}

/** The body's records: split on CRLF, the empty string after the final line end dropped. */
export function crlfLines(body: Buffer | string): string[] {
  const text = body.toString();
  if (text === '') return [];
  const lines = text.split('\r\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
