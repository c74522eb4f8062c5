import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { OutputFormat } from '../model/formats.js';

/** What the ledger records of a file's bytes. */
export interface FileFacts {
  bytes: number;
  sha256: string;
  /** Data rows, when counted. */
  rows?: number;
}

/** How to count a file's rows: its format, compression and whether a csv has a header line. */
export interface RowShape {
  format: OutputFormat | string;
  gzip: boolean;
  header: boolean;
}

const NEWLINE = 0x0a;

/**
 * Hashes a file in one read and, with `shape`, counts its data rows on the way (decompressing a gzip
 * file): the lines that are not blank, not the csv header and not a json array's brackets.
 */
export async function fileFacts(path: string, shape?: RowShape): Promise<FileFacts> {
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = shape ? new RowCounter(shape) : undefined;
  const gunzip = shape?.gzip ? createGunzip() : undefined;
  const counted = gunzip
    ? new Promise<void>((resolve, reject) => {
        gunzip.on('data', (chunk: Buffer) => counter?.push(chunk));
        gunzip.on('end', resolve);
        gunzip.on('error', reject);
      })
    : Promise.resolve();
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (gunzip) {
      if (!gunzip.write(chunk)) await new Promise((resolve) => gunzip.once('drain', resolve));
    } else counter?.push(chunk);
  }
  gunzip?.end();
  await counted;
  return { bytes, sha256: hash.digest('hex'), ...(counter ? { rows: counter.rows() } : {}) };
}

// Below this a file is hashed from one read: a stream's set-up costs more than a small file's bytes.
const ONE_READ_BYTES = 1 << 20;

/** The SHA-256 of a file's bytes (no rows counted): what sync compares with a row before it trusts it. */
export async function fileHash(path: string): Promise<string> {
  if ((await stat(path)).size > ONE_READ_BYTES) return (await fileFacts(path)).sha256;
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/** Counts data rows across chunks: a line's first bytes decide, so a line split between chunks counts once. */
class RowCounter {
  private lines = 0;
  private lineStart = true;
  private first = 0;
  private content = false;

  constructor(private readonly shape: RowShape) {}

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.lineStart) {
        this.first = chunk[at] ?? 0;
        this.lineStart = false;
        this.content = false;
      }
      const end = chunk.indexOf(NEWLINE, at);
      const stop = end === -1 ? chunk.length : end;
      for (let i = at; i < stop && !this.content; i++)
        if (chunk[i] !== 0x0d && chunk[i] !== 0x20) this.content = true;
      if (end === -1) return;
      this.endLine();
      at = end + 1;
    }
  }

  rows(): number {
    if (!this.lineStart) this.endLine();
    const header = this.shape.format === 'csv' && this.shape.header && this.lines > 0 ? 1 : 0;
    return this.lines - header;
  }

  private endLine(): void {
    const bracket = this.shape.format === 'json' && (this.first === 0x5b || this.first === 0x5d);
    if (this.content && !bracket) this.lines++;
    this.lineStart = true;
  }
}
