import { createReadStream, readFileSync } from 'node:fs';
import { type Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** Absolute path of a file under fixtures/. */
export const fixturePath = (name: string) =>
  fileURLToPath(new URL(`../../../fixtures/${name}`, import.meta.url));

/** A fixture as a byte stream in small chunks, so tokens straddle chunk boundaries. */
export const fixtureStream = (name: string): Readable =>
  createReadStream(fixturePath(name), { highWaterMark: 64 });

/** A fixture's text. */
export const fixtureText = (name: string) => readFileSync(fixturePath(name), 'utf8');

/** A Writable that keeps what it receives, for asserting exact output bytes. */
export class TextSink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.text += chunk.toString('utf8');
    callback();
  }
}

/** Every item of an async iterable, in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
